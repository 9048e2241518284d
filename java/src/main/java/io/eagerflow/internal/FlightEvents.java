package io.eagerflow.internal;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * The library's JDK Flight Recorder events, named and grouped as Netty ({@code
 * io.netty.AllocateBuffer}) and Hibernate ({@code org.hibernate.orm.*}) name theirs: {@code
 * io.eagerflow.<Event>}, in the category {@code eagerflow}. {@link Flight} creates and commits
 * them; the annotations here are the defaults a recording uses unless its settings say otherwise
 * (the jar ships the same as {@code io/eagerflow/eagerflow.jfc}). docs/observability.md lists every
 * field.
 */
final class FlightEvents {
  private FlightEvents() {}

  static final String CATEGORY = "eagerflow";

  @Name("io.eagerflow.SessionOpened")
  @Label("Session Opened")
  @Category({CATEGORY, "Session"})
  @Description("An EagerSession was built; the duration covers starting its threads")
  @StackTrace(true)
  static final class SessionOpened extends Event {
    @Label("Session Id")
    @Description("The session's native id; the same in its other events")
    long sessionId;

    @Label("Strategy")
    @Description("Its ResourceCleanupStrategy")
    String strategy;

    @Label("Asynchronous")
    boolean async;

    @Label("Async Queue Capacity")
    @Description("Ops an asynchronous session may hold queued; 0 for a synchronous one")
    int asyncQueueCapacity;

    @Label("Max Native Bytes")
    @Description("The hard limit on the session's live tensor bytes")
    @DataAmount
    long maxNativeBytes;

    @Label("GC Trigger Bytes")
    @Description("The fixed soft threshold, or 0 when it adapts")
    @DataAmount
    long gcTriggerBytes;

    @Label("Max GC Time Share")
    @Description("The share of wall time its requested collections may take")
    @Percentage
    double maxGcTimeShare;

    @Label("Track Leaks")
    boolean trackLeaks;
  }

  @Name("io.eagerflow.SessionClosed")
  @Label("Session Closed")
  @Category({CATEGORY, "Session"})
  @Description(
      "An EagerSession closed (by close() or by the cleaner); its final counts. The duration covers"
          + " waiting for calls in flight, stopping its threads and freeing its tensors")
  @StackTrace(false)
  static final class SessionClosed extends Event {
    @Label("Session Id")
    long sessionId;

    @Label("Strategy")
    String strategy;

    @Label("Asynchronous")
    boolean async;

    @Label("Max Native Bytes")
    @DataAmount
    long maxNativeBytes;

    @Label("Peak Bytes")
    @Description("The most live tensor bytes the session held")
    @DataAmount
    long peakBytes;

    @Label("Created Tensors")
    long createdTensors;

    @Label("Freed Explicitly")
    @Description("Freed by release() or closing a tensor")
    long freedExplicitly;

    @Label("Freed By Scope")
    long freedByScope;

    @Label("Freed By Cleanup")
    @Description("Freed by the cleanup strategy once unreachable")
    long freedByCleanup;

    @Label("Freed At Close")
    @Description("Still held when the session closed")
    long freedAtClose;

    @Label("GC Requests")
    @Description("Collections the session caused for native memory pressure")
    long gcRequests;
  }

  @Name("io.eagerflow.CleanupBatch")
  @Label("Cleanup Batch")
  @Category({CATEGORY, "Memory"})
  @Description(
      "The cleanup strategy freed tensors whose Java owners became unreachable, on the session's"
          + " cleanup thread (IN_BACKGROUND) or on the calling thread (ON_SAFE_POINTS, and after a"
          + " requested collection)")
  @StackTrace(false)
  static final class CleanupBatch extends Event {
    @Label("Session Id")
    long sessionId;

    @Label("Strategy")
    String strategy;

    @Label("Tensors")
    @Description("Tensors freed")
    long tensors;

    @Label("Bytes")
    @Description(
        "How far the session's live tensor bytes fell during the batch (other threads' ops in"
            + " the same moment count against it)")
    @DataAmount
    long bytes;
  }

  @Name("io.eagerflow.CollectionRequested")
  @Label("Collection Requested")
  @Category({CATEGORY, "Memory"})
  @Description(
      "A session caused a garbage collection because of native memory pressure, and waited for its"
          + " cleanup to free what it found; the duration is that wait")
  @StackTrace(true)
  static final class CollectionRequested extends Event {
    @Label("Session Id")
    long sessionId;

    @Label("Cause")
    @Description(
        "SOFT_THRESHOLD (live bytes passed the trigger), HARD_LIMIT (an allocation was refused and"
            + " will be retried once), QUEUED_OP (the same for an asynchronous session's queued"
            + " op)")
    String cause;

    @Label("Method")
    @Description(
        "YOUNG_FILL (filled Eden to cause a young collection), SYSTEM_GC, YOUNG_FILL_THEN_SYSTEM_GC"
            + " (the young collection freed nothing), NONE (no way to collect)")
    String method;

    @Label("Collected")
    @Description("Whether the GC MX beans saw a collection run")
    boolean collected;

    @Label("Live Bytes")
    @Description("The session's live tensor bytes before the collection")
    @DataAmount
    long liveBytes;

    @Label("Freed Bytes")
    @Description("How far its live bytes fell by the end of the wait")
    @DataAmount
    long freedBytes;

    @Label("Trigger")
    @Description("The soft threshold in force when the collection was requested")
    @DataAmount
    long trigger;

    @Label("Next Trigger")
    @Description(
        "The soft threshold pacing set after it (unchanged when fixed; 9223372036854775807 when"
            + " the session stopped requesting collections)")
    @DataAmount
    long nextTrigger;

    @Label("GC Time")
    @Description("What the collectors reported for the collections during the wait")
    @Timespan(Timespan.NANOSECONDS)
    long gcTime;
  }

  @Name("io.eagerflow.LimitReached")
  @Label("Limit Reached")
  @Category({CATEGORY, "Memory"})
  @Description(
      "A NativeMemoryExhaustedException was thrown to a caller: an allocation would have passed the"
          + " session's maxNativeBytes (after one collection and retry where the strategy frees"
          + " unreachable tensors), or the allocator refused it")
  @StackTrace(true)
  static final class LimitReached extends Event {
    @Label("Session Id")
    @Description("0 for standalone tensors")
    long sessionId;

    @Label("Strategy")
    String strategy;

    @Label("Live Bytes")
    @Description("The session's live tensor bytes when it was thrown")
    @DataAmount
    long liveBytes;

    @Label("Max Native Bytes")
    @Description("The session's hard limit (0 for standalone tensors, which have none)")
    @DataAmount
    long maxNativeBytes;

    @Label("Message")
    @Description("The exception's message: what was requested, what was tried, what to do")
    String message;
  }

  @Name("io.eagerflow.Warning")
  @Label("Warning")
  @Category(CATEGORY)
  @Description("A warning or error the library logged (System.Logger io.eagerflow)")
  @StackTrace(true)
  static final class Warning extends Event {
    @Label("Level")
    @Description("WARNING or ERROR")
    String level;

    @Label("Kind")
    @Description(
        "PRESSURE (collections cannot keep native memory down), LEAK (a tracked tensor was not"
            + " released), FORGOTTEN_SESSION, CLEANUP_FAILED, EXECUTOR_FAILED")
    String kind;

    @Label("Message")
    String message;
  }

  @Name("io.eagerflow.ScopeClosed")
  @Label("Scope Closed")
  @Category({CATEGORY, "Memory"})
  @Description("An EagerScope closed and freed the tensors it still owned, in one native call")
  @StackTrace(false)
  static final class ScopeClosed extends Event {
    @Label("Session Id")
    long sessionId;

    @Label("Tensors")
    @Description("Tensors the scope freed")
    long tensors;

    @Label("Bytes")
    @Description(
        "How far the session's live tensor bytes fell (buffers a kept tensor shares stay live)")
    @DataAmount
    long bytes;
  }

  @Name("io.eagerflow.OpExecution")
  @Label("Op Execution")
  @Category({CATEGORY, "Op"})
  @Description(
      "One op ran (in an asynchronous session: was queued, or ran on the building thread); off by"
          + " default, and then only ops slower than the threshold")
  @Enabled(false)
  @Threshold("1 ms")
  @StackTrace(false)
  static final class OpExecution extends Event {
    @Label("Session Id")
    long sessionId;

    @Label("Op")
    @Description("The op's TensorFlow type, such as MatMul")
    String op;

    @Label("Input Types")
    @Description("Each input's dtype, lists in brackets; '?' where not known without waiting")
    String inputTypes;

    @Label("Input Shapes")
    @Description("Each input's shape, such as [1024, 1024]")
    String inputShapes;

    @Label("Outputs")
    long outputs;
  }
}
