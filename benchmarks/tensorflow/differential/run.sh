#!/usr/bin/env bash
# The differential test against TensorFlow Java 1.1: generates the cases, runs them on eagerflow
# and on TensorFlow (a JVM each), compares, and prints the table and every differing case.
#   benchmarks/tensorflow/differential/run.sh [--publish] [--jar path/to/eagerflow.jar] [--out dir]
# --publish runs `gradle publishToMavenLocal` at the repository root first; --jar runs that jar
# instead of the one in the local Maven repository. Results go to --out (default
# benchmarks/tensorflow/differential/results/<time>): cases.tsv, eagerflow.tsv, tensorflow.tsv,
# table.md. Needs Linux x86-64, JDK 17+, Maven 3.8, Maven Central the first time.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
out="$here/results/$(date -u +%Y%m%dT%H%M%SZ)"
jar=""
while [ $# -gt 0 ]; do
  case $1 in
    --publish) (cd "$root" && GRADLE_OPTS=-Dorg.gradle.daemon=false gradle -q publishToMavenLocal) ;;
    --jar) jar=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --out) out=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
(cd "$here" && mvn -q -B package)
cases="$here/cases/target/classes"
java -cp "$cases" io.eagerflow.tfdiff.Generate "$out/cases.tsv"
ef_cp=$(cat "$here/eagerflow/target/classpath.txt")
if [ -n "$jar" ]; then
  ef_cp=$(echo "$ef_cp" | tr ':' '\n' | grep -v '/io/eagerflow/eagerflow/' | paste -sd:)
  ef_cp="$jar:$ef_cp"
fi
java --enable-native-access=ALL-UNNAMED -cp "$here/eagerflow/target/classes:$cases:$ef_cp" \
  io.eagerflow.tfdiff.EagerflowMain "$out/cases.tsv" "$out/eagerflow.tsv"
java -cp "$here/tf-java-1.1/target/classes:$cases:$(cat "$here/tf-java-1.1/target/classpath.txt")" \
  io.eagerflow.tfdiff.TensorFlowMain "$out/cases.tsv" "$out/tensorflow.tsv" 2>"$out/tensorflow.log"
java -cp "$cases" io.eagerflow.tfdiff.Compare "$out/cases.tsv" "$out/eagerflow.tsv" \
  "$out/tensorflow.tsv" | tee "$out/table.md"
