#!/usr/bin/env bash
# Side-by-side benchmark of eagerflow, TensorFlow Java 1.1 and libtensorflow 1.15: builds the
# Maven project next to this script, checks that the three systems compute the same numbers, runs
# the JMH workloads and the seed loop on each (systems alternating, a JVM per workload), samples
# the load average throughout, and writes the table into docs/benchmarks.md. See README.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

runs=3
warmup=3
iterations=5
seconds=1
include=""
systems="eagerflow,tf-java-1.1,tf-1.15"
seed_iterations=3000
live_mib=2048
rss_cap_mib=""
lock_wait=1800
given_jar=""
do_jmh=1
do_seed=1
publish=0
doc="$repo/docs/benchmarks.md"
doc_set=0
results=""
quick=0
args_given="$*"

usage() {
  cat <<'EOF'
Usage: benchmarks/tensorflow/run.sh [options]

  --quick              check the pipeline: 1 run, JMH -wi 1 -i 1, seed loop of 300 iterations
                       beside a 256 MiB live heap; writes only the results directory's report
  --runs N             runs (default 3); each run forks every JMH workload once per system
                       and runs every seed-loop configuration once per system
  --warmup N           JMH warm-up iterations per fork (default 3)
  --iterations N       JMH measurement iterations per fork (default 5)
  --time S             seconds per JMH iteration (default 1)
  --bench REGEX        only the JMH benchmarks matching REGEX (default all)
  --systems LIST       comma-separated of eagerflow,tf-java-1.1,tf-1.15 (default all three)
  --seed-iterations N  seed-loop iterations (default 3000)
  --live-mib N         the live heap beside the seed loop, MiB (default 2048)
  --rss-cap-mib N      stop a seed loop whose process passes N MiB resident (default: 13312,
                       or less if the machine has less memory available)
  --no-jmh, --no-seed  skip the JMH workloads or the seed loop
  --lock-wait S        how long to wait for another JMH instance's /tmp/jmh.lock before
                       giving up on that run (default 1800)
  --publish            first run `gradle publishToMavenLocal` in the repository, so that the
                       eagerflow measured is this checkout's
  --jar PATH           measure this eagerflow jar (e.g. build/libs' of a checkout) instead of
                       the local Maven repository's
  --doc FILE           the markdown file to write the table into (default docs/benchmarks.md)
  --no-doc             write only the results directory's report.md
  --results DIR        where results go (default benchmarks/tensorflow/results/<UTC time>)
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; runs=1; warmup=1; iterations=1; seed_iterations=300; live_mib=256 ;;
    --runs) runs=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --iterations) iterations=$2; shift ;;
    --time) seconds=$2; shift ;;
    --bench) include=$2; shift ;;
    --systems) systems=$2; shift ;;
    --seed-iterations) seed_iterations=$2; shift ;;
    --live-mib) live_mib=$2; shift ;;
    --rss-cap-mib) rss_cap_mib=$2; shift ;;
    --no-jmh) do_jmh=0 ;;
    --lock-wait) lock_wait=$2; shift ;;
    --no-seed) do_seed=0 ;;
    --publish) publish=1 ;;
    --jar) given_jar=$2; shift ;;
    --doc) doc=$2; doc_set=1; shift ;;
    --no-doc) doc="" ;;
    --results) results=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if [ "$quick" = 1 ] && [ "$doc_set" = 0 ]; then
  doc=""
fi
IFS=, read -r -a system_list <<< "$systems"
for s in "${system_list[@]}"; do
  case "$s" in
    eagerflow|tf-java-1.1|tf-1.15) ;;
    *) echo "unknown system: $s (eagerflow, tf-java-1.1, tf-1.15)" >&2; exit 2 ;;
  esac
done

java_bin="java"
if [ -n "${JAVA_HOME:-}" ]; then
  java_bin="$JAVA_HOME/bin/java"
fi

# Leave the machine's other users room: a loop whose cleanup cannot keep up is stopped well
# before the machine runs out.
avail_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
if [ -z "$rss_cap_mib" ]; then
  rss_cap_mib=13312
  if [ $((avail_mib - 2048)) -lt "$rss_cap_mib" ]; then
    rss_cap_mib=$((avail_mib - 2048))
    echo "note: $avail_mib MiB available; seed loops are stopped at $rss_cap_mib MiB resident" >&2
  fi
fi

results=${results:-"$here/results/$(date -u +%Y%m%d-%H%M%S)"}
mkdir -p "$results/log"
results=$(cd "$results" && pwd)
started=$(date +%s)

# ---- Load average, sampled every 30 s and at every step -------------------------------------
phase_file="$results/.phase"
echo "start" > "$phase_file"
sample_load() {
  printf '%s\t%s\t%s\n' "$(date +%s)" "$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '\t')" \
    "$(cat "$phase_file")" >> "$results/load.tsv"
}
phase() {
  echo "$1" > "$phase_file"
  sample_load
  printf '[%4d s] %s\n' $(($(date +%s) - started)) "$1"
}
( while :; do sample_load; sleep 30; done ) &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

# ---- Build ----------------------------------------------------------------------------------
if [ "$publish" = 1 ]; then
  phase "publishing eagerflow from $repo (gradle publishToMavenLocal)"
  (cd "$repo" && GRADLE_OPTS=-Dorg.gradle.daemon=false gradle -q publishToMavenLocal) \
    > "$results/log/publish.log" 2>&1
fi
phase "building (mvn package)"
mvn -q -f "$here/pom.xml" -Dmaven.test.skip=true package > "$results/log/build.log" 2>&1 || {
  cat "$results/log/build.log" >&2
  exit 1
}
# The local Maven repository is shared: anyone's `gradle publishToMavenLocal` replaces the
# SNAPSHOT jar, so the runs use a copy taken now (with --publish, of the jar this checkout built).
m2_jar="$HOME/.m2/repository/io/eagerflow/eagerflow/0.1.0-SNAPSHOT/eagerflow-0.1.0-SNAPSHOT.jar"
source_jar=$m2_jar
if [ "$publish" = 1 ]; then
  source_jar="$repo/build/libs/eagerflow-0.1.0-SNAPSHOT.jar"
elif [ -n "$given_jar" ]; then
  source_jar=$given_jar
fi
jar="$results/eagerflow.jar"
cp -p "$source_jar" "$jar"
classpath() {
  local cp
  cp="$here/$1/target/classes:$(cat "$here/$1/target/classpath.txt")"
  if [ "$1" = eagerflow ]; then
    cp=${cp//"$m2_jar"/"$jar"}
    case ":$cp:" in
      *":$jar:"*) ;;
      *) echo "eagerflow's class path does not name $m2_jar" >&2; exit 1 ;;
    esac
  fi
  echo "$cp"
}

# ---- What was run, and on what ----------------------------------------------------------------
jar_info="0.1.0-SNAPSHOT (jar of $(date -u -r "$jar" '+%Y-%m-%d %H:%M UTC'), sha256 $(sha256sum "$jar" | cut -c1-12)"
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$publish" = 1 ]; then
  dirty=$(git -C "$repo" status --porcelain 2>/dev/null | grep -v '^??' | head -1 || true)
  jar_info="$jar_info, built here from commit $commit${dirty:+ with local changes})"
else
  jar_info="$jar_info, copied at the start from ${given_jar:-the local Maven repository, which other checkouts may publish to}; this checkout is at $commit)"
fi
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_gib=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
virt=""
if grep -q '^flags.* hypervisor' /proc/cpuinfo; then
  virt=" (virtual machine)"
fi
java_version=$("$java_bin" -XshowSettings:properties -version 2>&1 \
  | awk -F' = ' '/java.runtime.version/ { v = $2 } /java.vm.name/ { n = $2 } END { print n " " v }')
{
  printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'command\t%s\n' "benchmarks/tensorflow/run.sh${args_given:+ $args_given}"
  printf 'machine\t%s, %s cores%s, %s GiB, Linux %s\n' "$cpu" "$(nproc)" "$virt" "$mem_gib" "$(uname -r)"
  printf 'cores\t%s\n' "$(nproc)"
  printf 'nice\t%s\n' "$(nice)"
  printf 'java\t%s\n' "$java_version"
  printf 'eagerflow\t%s\n' "$jar_info"
  printf 'runs\t%s\n' "$runs"
  printf 'jmh\t%s\n' "-f 1 -wi $warmup -i $iterations -w ${seconds}s -r ${seconds}s"
  printf 'seedIterations\t%s\n' "$seed_iterations"
  printf 'liveMiB\t%s\n' "$live_mib"
  printf 'rssCapMiB\t%s\n' "$rss_cap_mib"
} > "$results/meta.tsv"

# ---- Verify: the same numbers on every system, before any timing ----------------------------
# The network's weights (common/Cnn.java): the first JVM writes them from their seed into this
# file, every other reads it.
weights_prop="-Dtfbench.cnnWeights=$results/cnn-weights.bin"
failed=0
for s in "${system_list[@]}"; do
  phase "verify $s"
  if ! "$java_bin" -XX:+UseG1GC -Xmx4g --enable-native-access=ALL-UNNAMED "$weights_prop" \
      -cp "$(classpath "$s")" io.eagerflow.tfbench.Verify "$results/verify-$s.tsv" > "$results/log/verify-$s.log" 2>&1; then
    failed=1
  fi
  grep -E '^[a-z0-9.-]+ +[A-Za-z0-9]+ +(ok|FAIL)' "$results/log/verify-$s.log" | grep FAIL >&2 || true
done
# The network's logits, system against system (each was checked against a double reference).
for s in "${system_list[@]}"; do
  if [ "$s" != "${system_list[0]}" ] && [ -f "$results/verify-$s.tsv.cnn-logits" ] \
      && [ -f "$results/verify-${system_list[0]}.tsv.cnn-logits" ]; then
    printf '%s vs %s: ' "${system_list[0]}" "$s" >> "$results/cnn-agreement.txt"
    "$java_bin" -cp "$here/common/target/classes" io.eagerflow.tfbench.Cnn \
      "$results/verify-${system_list[0]}.tsv.cnn-logits" "$results/verify-$s.tsv.cnn-logits" \
      >> "$results/cnn-agreement.txt" 2>&1 || true
  fi
done
[ -f "$results/cnn-agreement.txt" ] && cat "$results/cnn-agreement.txt"
if [ "$failed" = 1 ]; then
  echo "verification failed: the systems do not compute the same numbers (see $results/log)" >&2
  exit 1
fi

# ---- The runs -------------------------------------------------------------------------------
count=${#system_list[@]}
echo "Each run: $([ "$do_jmh" = 1 ] && echo "15 JMH forks of about $(((warmup + iterations) * seconds + 5)) s per system")$([ "$do_jmh" = 1 ] && [ "$do_seed" = 1 ] && echo ", ")$([ "$do_seed" = 1 ] && echo "4 seed-loop JVMs per system (the live-heap ones take the longest)"); $runs run(s), $count system(s)."
for r in $(seq 1 "$runs"); do
  for i in $(seq 0 $((count - 1))); do
    s=${system_list[$(((i + r - 1) % count))]}
    cp=$(classpath "$s")
    if [ "$do_jmh" = 1 ]; then
      phase "run $r/$runs: JMH on $s"
      log="$results/log/jmh-$s-r$r.log"
      # JMH takes a machine-wide lock (/tmp/jmh.lock) and exits at once if another benchmark,
      # anyone's, holds it: wait for it rather than lose the run.
      waited=0
      while :; do
        status=0
        # shellcheck disable=SC2086
        "$java_bin" -cp "$cp" org.openjdk.jmh.Main -jvmArgsPrepend "$weights_prop" -f 1 -wi "$warmup" -i "$iterations" \
          -w "${seconds}s" -r "${seconds}s" -rf json -rff "$results/jmh-$s-r$r.json" $include \
          > "$log" 2>&1 || status=$?
        if [ "$status" = 0 ] || ! grep -q 'Unable to acquire the JMH lock' "$log" \
            || [ "$waited" -ge "$lock_wait" ]; then
          break
        fi
        if [ "$waited" = 0 ]; then
          echo "another JMH instance holds /tmp/jmh.lock; waiting up to $lock_wait s" >&2
        fi
        sleep 10
        waited=$((waited + 10))
      done
      if [ "$waited" -gt 0 ]; then
        printf 'jmhLockWait\t%s\t%s\t%s\n' "$s" "$r" "$waited" >> "$results/meta.tsv"
      fi
      if [ "$status" != 0 ]; then
        echo "JMH on $s exited with $status (see $log); run $r is missing from its cells" >&2
      fi
      if grep -q '<failure>' "$results/log/jmh-$s-r$r.log"; then
        echo "a JMH benchmark failed on $s; see $results/log/jmh-$s-r$r.log" >&2
      fi
    fi
    if [ "$do_seed" = 1 ]; then
      for config in "background 0" "release 0" "background $live_mib" "release $live_mib"; do
        read -r mode live <<< "$config"
        heap=4g
        if [ "$live" -gt 0 ]; then
          heap=6g
        fi
        phase "run $r/$runs: seed loop on $s, $mode, live heap $live MiB"
        log="$results/log/seed-$s-$mode-$live-r$r.log"
        status=0
        "$java_bin" -XX:+UseG1GC "-Xmx$heap" --enable-native-access=ALL-UNNAMED -cp "$cp" \
          io.eagerflow.tfbench.SeedLoopMain "$mode" "$live" "$seed_iterations" "$rss_cap_mib" \
          > "$log" 2>&1 || status=$?
        if grep -q '^RESULT ' "$log"; then
          grep '^RESULT ' "$log" | sed "s/^/run=$r /" >> "$results/seed.txt"
        else
          printf 'run=%s RESULT system=%s mode=%s liveMiB=%s iterations=%s completed=0 wallMs=0 peakRssMiB=0 nativePeakMiB=- gcs=0 gcMs=0 check=not_checked end=the JVM exited with status %s before reporting (see %s)\n' \
            "$r" "$s" "$mode" "$live" "$seed_iterations" "$status" "log/$(basename "$log")" \
            >> "$results/seed.txt"
        fi
        tail -1 "$results/seed.txt" | sed 's/^/    /'
      done
    fi
  done
done

# ---- The table ------------------------------------------------------------------------------
phase "report"
minutes=$(( ($(date +%s) - started + 30) / 60 ))
printf 'duration\t%s\n' "took $minutes min, build and verification included" >> "$results/meta.tsv"
report_cp="$here/report/target/classes:$(cat "$here/report/target/classpath.txt")"
"$java_bin" -cp "$report_cp" io.eagerflow.tfbench.report.Report "$results" ${doc:+"$doc"}
echo "Results: $results"
