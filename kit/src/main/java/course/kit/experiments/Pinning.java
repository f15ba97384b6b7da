package course.kit.experiments;

import course.base.diagnostics.Carriers;
import course.base.diagnostics.PinnedEvents;
import course.kit.Format;
import course.kit.Reproduction;
import course.kit.Scale;
import course.kit.diagnostics.Fifo;
import course.kit.diagnostics.SchedulerSampler;
import course.kit.models.PoolModel;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;

/**
 * Notebook 06's measured figures for {@code ./course reproduce}: the same code as the notebook's cells
 * (a blocking call under {@code synchronized}, a class initialiser that sleeps, synchronous writes to a pipe),
 * with the same instruments.
 */
public final class Pinning {
    /** JFR's threshold for a pinned park, as in the notebook. */
    static final Duration THRESHOLD = Duration.ofMillis(10);
    /** How long {@link SlowInit}'s class initialiser sleeps. */
    static final long INIT_MILLIS = 100;

    private Pinning() {}

    /** A class whose initialiser sleeps; each {@link #freshSlowInit()} loads a new, uninitialised copy. */
    public static final class SlowInit {
        public static final String REGION;

        static {
            try {
                Thread.sleep(INIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            REGION = "eu-west";
        }
    }

    /** A new copy of {@link SlowInit}, not yet initialised, in a class loader of its own. */
    static Class<?> freshSlowInit() throws ClassNotFoundException {
        var here = Pinning.class.getProtectionDomain().getCodeSource().getLocation();
        @SuppressWarnings(
                "resource") // kept open: the class is used after this returns; the loader is collected with it
        var loader = new URLClassLoader(new java.net.URL[] {here}, ClassLoader.getPlatformClassLoader());
        return Class.forName(SlowInit.class.getName(), false, loader);
    }

    /** {@code tasks} virtual threads, each sleeping {@code call} under its own monitor; elapsed ms and pinned parks. */
    static double[] synchronizedCalls(int tasks, Duration call) throws Exception {
        long[] elapsed = new long[1];
        List<PinnedEvents.Pin> pins = PinnedEvents.during(THRESHOLD, () -> {
            long t0 = System.nanoTime();
            try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < tasks; i++) {
                    Object account = new Object();
                    ex.submit(() -> {
                        synchronized (account) {
                            Thread.sleep(call);
                        }
                        return null;
                    });
                }
            }
            elapsed[0] = System.nanoTime() - t0;
        });
        return new double[] {elapsed[0] / 1e6, pins.size()};
    }

    /** Pinned parks while {@code tasks} virtual threads read a static field of a fresh {@link SlowInit}. */
    static int classInitialiserPins(int tasks) throws Exception {
        Class<?> config = freshSlowInit();
        return PinnedEvents.during(THRESHOLD, () -> {
                    try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
                        for (int i = 0; i < tasks; i++)
                            ex.submit(() -> config.getField("REGION").get(null));
                    }
                })
                .size();
    }

    /** The peak pool size while {@code writers} virtual threads block writing 128 KiB each to a pipe in "rws" mode. */
    static int syncWritersPeakPool(int writers, Duration hold) throws Exception {
        int chunk = 128 * 1024;
        try (var fifo = Fifo.create();
                var sampler = SchedulerSampler.every(Duration.ofMillis(5))) {
            var threads = new ArrayList<Thread>();
            try {
                for (int i = 0; i < writers; i++) {
                    threads.add(Thread.ofVirtual().start(() -> {
                        try (var out = new RandomAccessFile(fifo.file(), "rws")) {
                            out.write(new byte[chunk]);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }));
                }
                Thread.sleep(hold);
            } finally {
                fifo.drain((long) writers * chunk);
            }
            for (Thread t : threads) t.join();
            return SchedulerSampler.peakPoolSize(sampler.stop());
        }
    }

    /** The reproduction rows of notebook 06. */
    public static List<Reproduction> reproduce(Scale scale) throws Exception {
        Objects.requireNonNull(scale, "scale");
        int carriers = Carriers.scheduler().getParallelism();
        int tasks = scale.pick(1_000, 200);
        Duration call = Duration.ofMillis(scale.pick(50, 20));
        synchronizedCalls(tasks, call); // warm-up: JFR's first recording and the JIT
        double[] sync = synchronizedCalls(tasks, call);
        int initPins = classInitialiserPins(tasks);
        int writers = 4 * carriers;
        int peak = syncWritersPeakPool(writers, call.multipliedBy(writers));
        String jdk21 = String.format(
                "JDK 21 pinned: ⌈N/P⌉·t = %s", Format.duration(PoolModel.batchTime(tasks, carriers, call)));
        return List.of(
                new Reproduction(
                        String.format(
                                "%,d virtual threads, sleep %s inside synchronized", tasks, Format.duration(call)),
                        "JEP 491",
                        jdk21,
                        call.toNanos() / 1e6,
                        sync[0],
                        "ms",
                        "JDK 25: one call, all in flight at once"),
                new Reproduction(
                        "pinned events (≥ 10 ms), sleep inside synchronized",
                        "JEP 491",
                        "JDK 21: one per call",
                        0,
                        sync[1],
                        "events",
                        "JFR jdk.VirtualThreadPinned"),
                new Reproduction(
                        String.format(
                                "pinned events, %,d virtual threads reach a class initialiser that sleeps %d ms",
                                tasks, INIT_MILLIS),
                        "JEP 491",
                        "still pins",
                        carriers,
                        initPins,
                        "events",
                        "the initialising thread and one waiter per other carrier"),
                new Reproduction(
                        String.format(
                                "carriers while %d virtual threads block writing a pipe in \"rws\" mode", writers),
                        "JDK 25",
                        "the scheduler compensates",
                        carriers + writers,
                        peak,
                        "carriers",
                        "parallelism " + carriers + " + up to one per blocked writer: the most the scheduler may add"));
    }
}
