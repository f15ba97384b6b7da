package course.kit;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * An instrument: the garbage collector's stop-the-world pauses in this JVM while it listens. Every thread stands
 * still during such a pause, so a request that meets one takes that much longer, whatever the code under test
 * does. A check on a latency can therefore allow for the pauses that this run, on this machine, actually had.
 *
 * <pre>{@code
 * try (var gc = GcPauses.listen()) {
 *     ... // the experiment
 *     Duration worst = GcPauses.mostWithin(gc.pauses(), Duration.ofMillis(500));
 * }
 * }</pre>
 *
 * <p>It reads the JVM's own notifications ({@link GarbageCollectionNotificationInfo}), one per collection, and
 * keeps those of the collectors whose collections stop the application: with G1, young, mixed and full
 * collections and (in the bean "G1 Concurrent GC") the remark and clean-up pauses. The concurrent cycles of ZGC
 * and Shenandoah (beans named "… Cycles") run beside the application and are left out. A pause's end is the
 * notification's wall-clock time stamp and its length the collector's own figure, both in whole milliseconds,
 * so each pause is placed to within a few milliseconds.
 */
public final class GcPauses implements AutoCloseable {
    /**
     * One pause.
     *
     * @param collector  the collector's bean, "G1 Young Generation" say
     * @param cause      why it ran, "G1 Evacuation Pause" say
     * @param startNanos when it began, on the {@link System#nanoTime} clock (to about 1 ms)
     * @param nanos      how long every thread stood still
     */
    public record Pause(String collector, String cause, long startNanos, long nanos) {
        public Pause {
            Objects.requireNonNull(collector, "collector");
            Objects.requireNonNull(cause, "cause");
            if (nanos < 0) throw new IllegalArgumentException("a pause cannot last " + nanos + " ns");
        }

        /** When it ended, on the {@link System#nanoTime} clock. */
        public long endNanos() {
            return startNanos + nanos;
        }
    }

    private final List<Pause> pauses = new ArrayList<>();
    private final List<Runnable> removers = new ArrayList<>();
    private final long nanoAtEpoch0; // the System.nanoTime() value at epoch millisecond 0, to within 1 ms

    private GcPauses(Consumer<Pause> onPause) {
        nanoAtEpoch0 = System.nanoTime() - System.currentTimeMillis() * 1_000_000L;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean.getName().contains("Cycles")) continue; // concurrent with the application: no pause
            if (!(bean instanceof NotificationEmitter emitter)) continue;
            NotificationListener listener = (Notification n, Object handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) return;
                var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                // The notification's time stamp is the wall-clock millisecond at which the collection ended; the
                // GcInfo's own start and end count from an instant in the JVM's start that Java cannot read.
                long nanos = Math.max(0, info.getGcInfo().getDuration()) * 1_000_000L;
                long end = nanoAtEpoch0 + n.getTimeStamp() * 1_000_000L;
                var pause = new Pause(info.getGcName(), info.getGcCause(), end - nanos, nanos);
                synchronized (pauses) {
                    pauses.add(pause);
                }
                onPause.accept(pause);
            };
            emitter.addNotificationListener(listener, null, null);
            removers.add(() -> {
                try {
                    emitter.removeNotificationListener(listener);
                } catch (ListenerNotFoundException e) {
                    // already gone
                }
            });
        }
    }

    /** Starts listening; {@link #close} stops. */
    public static GcPauses listen() {
        return new GcPauses(p -> {});
    }

    /** Starts listening and hands every pause to {@code onPause} as well (on the JVM's notification thread). */
    public static GcPauses listen(Consumer<Pause> onPause) {
        return new GcPauses(Objects.requireNonNull(onPause, "onPause"));
    }

    /** The pauses so far, in the order they began. */
    public List<Pause> pauses() {
        synchronized (pauses) {
            return pauses.stream()
                    .sorted(Comparator.comparingLong(Pause::startNanos))
                    .toList();
        }
    }

    /** The pauses so far that overlap [{@code from}, {@code to}) on the {@link System#nanoTime} clock. */
    public List<Pause> pausesBetween(long from, long to) {
        return pauses().stream()
                .filter(p -> p.endNanos() > from && p.startNanos() < to)
                .toList();
    }

    /**
     * The most pause time that falls inside any one stretch of length {@code span}: the longest a task that
     * lasts {@code span} can have been held up by the collector. With pauses of 80, 30 and 120 ms, the first a
     * second before the other two and those two starting 200 ms apart, a span of 500 ms holds at most 150 ms.
     */
    public static Duration mostWithin(List<Pause> pauses, Duration span) {
        Objects.requireNonNull(pauses, "pauses");
        long s = Objects.requireNonNull(span, "span").toNanos();
        if (s < 0) throw new IllegalArgumentException("negative span: " + span);
        long most = 0;
        for (Pause first : pauses) { // a stretch that holds the most pause time can start where a pause starts
            long from = first.startNanos(), to = from + s, sum = 0;
            for (Pause p : pauses) {
                sum += Math.max(0, Math.min(to, p.endNanos()) - Math.max(from, p.startNanos()));
            }
            most = Math.max(most, sum);
        }
        return Duration.ofNanos(most);
    }

    /** Stops listening. */
    @Override
    public void close() {
        removers.forEach(Runnable::run);
        removers.clear();
    }
}
