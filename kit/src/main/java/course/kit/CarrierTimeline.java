package course.kit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a {@link CarrierTrace} recorded: every stretch a traced virtual thread spent mounted on a carrier, and
 * what the trace could not attribute ({@link #notes()}). {@link Charts#carriers} draws it, one lane per carrier.
 *
 * <pre>{@code
 * var carriers = trace.stop();
 * carriers.carriers();                  // [ForkJoinPool-1-worker-1, ForkJoinPool-1-worker-2]
 * carriers.busy("ForkJoinPool-1-worker-1");   // how long that carrier ran traced threads
 * carriers.carriersOf(0);               // the carriers virtual thread 0 ran on, in order
 * }</pre>
 *
 * Virtual threads are numbered from 0 in the order the trace's factory made them; times are nanoseconds from
 * the trace's start.
 */
public final class CarrierTimeline {
    /**
     * One mount: virtual thread {@code thread} ran on {@code carrier} from {@code startNanos} to {@code endNanos}.
     *
     * @param thread     the virtual thread's number in the trace (0, 1, …)
     * @param threadId   its {@link Thread#threadId()}, or -1 where not kept
     * @param carrier    the carrier's name, for example {@code ForkJoinPool-1-worker-1}
     * @param startNanos when it mounted, from the trace's start
     * @param endNanos   when it unmounted (the same instant for a fallback mark)
     */
    public record Stretch(int thread, long threadId, String carrier, long startNanos, long endNanos) {
        /** How long it was mounted. */
        public long durationNanos() {
            return endNanos - startNanos;
        }
    }

    private final String name;
    private final long wallNanos;
    private final String[] carrierNames;
    private final int[] carrierOf, threads;
    private final long[] starts, ends, threadIds;
    private final boolean exact;
    private final int dropped, untraced, idsNotKept, overflowCarriers, openAtStop;
    private final String fallbackReason;
    private final List<String> sortedCarriers;

    CarrierTimeline(
            String name,
            long wallNanos,
            String[] carrierNames,
            int[] carrierOf,
            int[] threads,
            long[] starts,
            long[] ends,
            long[] threadIds,
            boolean exact,
            int dropped,
            int untraced,
            int idsNotKept,
            int overflowCarriers,
            int openAtStop,
            String fallbackReason) {
        this.name = Objects.requireNonNull(name, "name");
        this.wallNanos = wallNanos;
        this.carrierNames = carrierNames;
        this.carrierOf = carrierOf;
        this.threads = threads;
        this.starts = starts;
        this.ends = ends;
        this.threadIds = threadIds;
        this.exact = exact;
        this.dropped = dropped;
        this.untraced = untraced;
        this.idsNotKept = idsNotKept;
        this.overflowCarriers = overflowCarriers;
        this.openAtStop = openAtStop;
        this.fallbackReason = fallbackReason;
        int n = starts.length;
        if (carrierOf.length != n || threads.length != n || ends.length != n) {
            throw new IllegalArgumentException("one carrier, thread, start and end per stretch");
        }
        var used = new LinkedHashSet<String>();
        for (int c : carrierOf) used.add(carrierNames[c]);
        sortedCarriers = used.stream().sorted(NATURAL).toList();
    }

    /** Names in natural order: {@code worker-2} before {@code worker-10}. */
    public static final Comparator<String> NATURAL = (a, b) -> {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int i2 = i, j2 = j;
                while (i2 < a.length() && Character.isDigit(a.charAt(i2))) i2++;
                while (j2 < b.length() && Character.isDigit(b.charAt(j2))) j2++;
                String p = a.substring(i, i2).replaceFirst("^0+(?=.)", ""),
                        q = b.substring(j, j2).replaceFirst("^0+(?=.)", "");
                int c = p.length() != q.length() ? Integer.compare(p.length(), q.length()) : p.compareTo(q);
                if (c != 0) return c;
                i = i2;
                j = j2;
            } else {
                if (x != y) return Character.compare(x, y);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** The trace's label. */
    public String name() {
        return name;
    }

    /** Wall time from the trace's start to its stop. */
    public Duration elapsed() {
        return Duration.ofNanos(wallNanos);
    }

    /** {@link #elapsed()} in milliseconds. */
    public double elapsedMillis() {
        return wallNanos / 1e6;
    }

    /**
     * Whether every stretch is one whole mount (true), or the trace fell back to each task's first and last
     * instant, placed on the carrier it saw then ({@link #notes()} says why).
     */
    public boolean exact() {
        return exact;
    }

    /** The carriers that ran a recorded stretch, in natural order of their names. */
    public List<String> carriers() {
        return sortedCarriers;
    }

    /** How many stretches were recorded. */
    public int count() {
        return starts.length;
    }

    /** How many traced virtual threads ran at least one recorded stretch. */
    public int virtualThreads() {
        return (int) Arrays.stream(threads).distinct().count();
    }

    /** Every recorded stretch, by start time. */
    public List<Stretch> stretches() {
        var out = new ArrayList<Stretch>(count());
        for (int i = 0; i < count(); i++) out.add(stretch(i));
        out.sort(Comparator.comparingLong(Stretch::startNanos));
        return out;
    }

    /** The stretches on {@code carrier}, by start time. */
    public List<Stretch> on(String carrier) {
        return stretches().stream().filter(s -> s.carrier().equals(carrier)).toList();
    }

    /** The stretches of virtual thread {@code thread} (its number in the trace), by start time. */
    public List<Stretch> of(int thread) {
        return stretches().stream().filter(s -> s.thread() == thread).toList();
    }

    /** The carriers virtual thread {@code thread} ran on, one entry per stretch, in time order. */
    public List<String> carriersOf(int thread) {
        return of(thread).stream().map(Stretch::carrier).toList();
    }

    /** How long {@code carrier} ran traced virtual threads: the sum of its stretches. */
    public Duration busy(String carrier) {
        long sum = 0;
        for (int i = 0; i < count(); i++) {
            if (carrierNames[carrierOf[i]].equals(carrier)) sum += ends[i] - starts[i];
        }
        return Duration.ofNanos(sum);
    }

    /** Stretches not recorded because the trace was full. */
    public int dropped() {
        return dropped;
    }

    /**
     * How many times, at least, the JVM resumed a traced thread without the trace (after {@code Thread.yield()}, or
     * a wake-up that raced with its parking): the thread's stretches from then until it next blocked are missing.
     */
    public int untraced() {
        return untraced;
    }

    /** What the trace could not attribute, one plain sentence each; empty when it saw every mount it made. */
    public List<String> notes() {
        var out = new ArrayList<String>();
        if (!exact) {
            out.add("not exact: " + fallbackReason + ". Each task's first and last instant are placed on the"
                    + " carrier it named then; the stretches in between are unknown and not drawn");
        }
        if (dropped > 0) {
            out.add(String.format(
                    Locale.ROOT,
                    "%,d stretches dropped: the trace held %,d (CarrierTrace.start(name, capacity) holds more)",
                    dropped,
                    count()));
        }
        if (untraced > 0) {
            out.add(String.format(
                    Locale.ROOT,
                    "%,d times (at least) the JVM resumed a thread without the trace, after Thread.yield or a wake-up"
                            + " that raced with its parking: its stretches until it next blocked are missing",
                    untraced));
        }
        if (openAtStop > 0) {
            out.add(String.format(
                    Locale.ROOT,
                    "%,d stretches were still mounted when the trace stopped: drawn up to the stop",
                    openAtStop));
        }
        if (idsNotKept > 0) {
            out.add(String.format(
                    Locale.ROOT,
                    "%,d virtual threads beyond the trace's capacity: their ids were not kept",
                    idsNotKept));
        }
        if (overflowCarriers > 0) {
            out.add(String.format(
                    Locale.ROOT,
                    "%,d stretches on carriers beyond the first %,d are drawn on the last lane",
                    overflowCarriers,
                    carrierNames.length));
        }
        return out;
    }

    private Stretch stretch(int i) {
        int t = threads[i];
        return new Stretch(t, t < threadIds.length ? threadIds[t] : -1, carrierNames[carrierOf[i]], starts[i], ends[i]);
    }

    /** A summary: stretches, threads, carriers and each carrier's busy time. */
    @Override
    public String toString() {
        var b = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: %,d stretches of %,d virtual threads on %,d carriers in %s",
                name,
                count(),
                virtualThreads(),
                sortedCarriers.size(),
                Format.millis(elapsedMillis())));
        for (String c : sortedCarriers) {
            b.append(String.format(Locale.ROOT, "\n  %s: busy %s", c, Format.millis(busy(c).toNanos() / 1e6)));
        }
        for (String n : notes()) b.append("\n  ⚑ ").append(n);
        return b.toString();
    }
}
