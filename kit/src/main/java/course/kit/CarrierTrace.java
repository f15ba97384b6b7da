package course.kit;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An instrument: which carrier ran which virtual thread, and when. It records every <i>stretch</i> a virtual
 * thread spent mounted on a carrier, from mount to unmount, on which carrier; {@link #stop()} returns the
 * {@link CarrierTimeline} that {@link Charts#carriers} draws, one lane per carrier.
 *
 * <pre>{@code
 * var trace = CarrierTrace.start("virtual thread per customer");
 * try (var staff = Executors.newThreadPerTaskExecutor(trace.factory())) {   // virtual threads whose mounts are traced
 *     for (int i = 0; i < customers; i++) staff.submit(() -> { Thread.sleep(brew); return null; });
 * }
 * var carriers = trace.stop();          // stretches per carrier and per virtual thread, busy time per carrier
 * Charts.carriers(carriers)             // one lane per carrier, each stretch coloured by its virtual thread
 * }</pre>
 *
 * With a {@link Recorder} too: {@code rec.executor(Executors.newThreadPerTaskExecutor(trace.factory()))} records
 * each task and traces the virtual thread that runs it.
 *
 * <p><b>How.</b> The virtual threads of {@link #factory()} are ordinary virtual threads on the JVM's own
 * scheduler (the ForkJoinPool whose workers are the carriers), with one difference: the JVM hands each of them
 * to the scheduler through the trace, which notes the carrier and the time before and after each mount. A stretch
 * is exactly one mount: a thread that sleeps unmounts, and its next stretch may be on another carrier; a
 * CPU-bound thread never unmounts, one long stretch; a thread pinned while it parks (in a class initialiser, say)
 * holds its carrier, and the park is inside its stretch. It needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}
 * (the course's kernel and tests have it): the JDK's constructor of a virtual thread with a scheduler of its own is
 * not public.
 *
 * <p><b>What it cannot see</b>, and says so in {@link CarrierTimeline#notes()}:
 * <ul>
 *   <li>virtual threads not created by {@link #factory()} (another executor's, the JVM's own): they are not drawn,
 *       and a carrier that runs them looks idle meanwhile. Virtual threads that a traced thread starts itself are
 *       traced too (they inherit its scheduler), numbered as they first mount;</li>
 *   <li>a resumption the JVM hands to the carriers directly: after {@code Thread.yield()}, or a wake-up that
 *       races with the thread's parking. That stretch is missing, not misattributed; the timeline counts those it
 *       noticed, a lower bound;</li>
 *   <li>stretches beyond the trace's capacity: counted as dropped;</li>
 *   <li>without the {@code --add-opens}: the trace falls back to what a task can see of itself, the carrier it
 *       starts on and the one it ends on (from {@code Thread.currentThread().toString()}, as in
 *       {@code VirtualThread[#22]/runnable@ForkJoinPool-1-worker-1}); the stretches in between are unknown, and
 *       the chart draws only those two instants.</li>
 * </ul>
 *
 * <p><b>Cost.</b> Per stretch: two {@code System.nanoTime()} calls, one atomic increment and four array writes
 * into arrays allocated at {@link #start}; the scheduler's own small task object per mount is the JDK's.
 */
public final class CarrierTrace {
    /** How many stretches {@link #start(String)} holds: 10,000 sleeping virtual threads make about 20,000. */
    public static final int DEFAULT_CAPACITY = 200_000;
    /** How long {@link #stop()} waits for stretches still unwinding (a thread ended a moment ago) to close. */
    static final long STOP_PATIENCE_NANOS = 50_000_000;
    /** The most carriers a trace tells apart (the JVM's scheduler has at most 256 unless configured otherwise). */
    static final int MAX_CARRIERS = 1024;

    private final String name;
    private final Executor carriers;
    private final long t0;
    private final long[] starts, ends;
    private final int[] threads, carrierOf;
    private final long[] threadIds;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger nextThread = new AtomicInteger();
    private final AtomicInteger untraced = new AtomicInteger();
    private final AtomicReferenceArray<Object> carrierTable = new AtomicReferenceArray<>(MAX_CARRIERS);
    private final AtomicInteger foreignCarriers = new AtomicInteger();
    private final ConcurrentHashMap<Runnable, Mount> children = new ConcurrentHashMap<>();
    private final String fallbackReason;
    private volatile boolean stopped;
    private volatile CarrierTimeline result;

    private CarrierTrace(String name, int capacity, Executor carriers, String fallbackReason) {
        if (capacity < 1) throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        this.name = Objects.requireNonNull(name, "name");
        this.carriers = carriers;
        this.fallbackReason = fallbackReason;
        starts = new long[capacity];
        ends = new long[capacity];
        threads = new int[capacity];
        carrierOf = new int[capacity];
        threadIds = new long[capacity];
        Arrays.fill(threadIds, -1);
        Arrays.fill(ends, -1);
        t0 = System.nanoTime();
    }

    /** Starts a trace of up to {@link #DEFAULT_CAPACITY} stretches, labelled {@code name} on the chart. */
    public static CarrierTrace start(String name) {
        return start(name, DEFAULT_CAPACITY);
    }

    /** Starts a trace of up to {@code capacity} stretches (and as many virtual threads), labelled {@code name}. */
    public static CarrierTrace start(String name, int capacity) {
        if (!Jdk.AVAILABLE) return new CarrierTrace(name, capacity, null, Jdk.WHY_NOT);
        WarmUp.once();
        return new CarrierTrace(name, capacity, Jdk.DEFAULT_SCHEDULER, null);
    }

    /**
     * The first trace of a JVM would run its own code cold, and start the JVM's timer thread for virtual threads
     * with a scheduler of their own, inside the experiment it measures: a cold café of 10,000 sleeps took 360–710
     * ms against 250–290 ms warm (2 busy cores). A throwaway trace of {@value #WARM_UP_THREADS} sleeps of 1 ms, once
     * per JVM, pays for that before the first real trace starts its clock: 90–220 ms after the JVM's first virtual
     * threads, 260 ms in a fresh JVM.
     */
    private static final class WarmUp {
        private static volatile boolean done;

        static void once() {
            if (done) return;
            synchronized (WarmUp.class) {
                if (done) return;
                var trace = new CarrierTrace("warm-up", 4 * WARM_UP_THREADS, Jdk.DEFAULT_SCHEDULER, null);
                var threads = new Thread[WARM_UP_THREADS];
                for (int i = 0; i < threads.length; i++) {
                    threads[i] = trace.startVirtualThread(() -> {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
                boolean interrupted = false;
                for (Thread t : threads) {
                    while (true) {
                        try {
                            t.join();
                            break;
                        } catch (InterruptedException e) {
                            interrupted = true;
                        }
                    }
                }
                trace.stop();
                done = true;
                if (interrupted) Thread.currentThread().interrupt();
            }
        }
    }

    /** How many virtual threads the once-per-JVM warm-up traces. */
    static final int WARM_UP_THREADS = 2_000;

    /** A trace whose virtual threads run on {@code carriers} instead of the JVM's scheduler (the kit's tests). */
    static CarrierTrace on(String name, int capacity, Executor carriers) {
        if (!Jdk.AVAILABLE) throw new IllegalStateException(Jdk.WHY_NOT);
        return new CarrierTrace(name, capacity, Objects.requireNonNull(carriers, "carriers"), null);
    }

    /** A trace in the fallback mode, as without the {@code --add-opens} (the kit's tests). */
    static CarrierTrace fallback(String name, int capacity) {
        return new CarrierTrace(name, capacity, null, "(a test asked for the fallback)");
    }

    /** The label. */
    public String name() {
        return name;
    }

    /** Whether each mount is traced (true), or only each task's first and last carrier (the fallback). */
    public boolean exact() {
        return fallbackReason == null;
    }

    /**
     * A factory of traced virtual threads, for {@code Executors.newThreadPerTaskExecutor(trace.factory())} or
     * {@code trace.factory().newThread(task)}. Unnamed, like {@code Thread.ofVirtual()}'s.
     */
    public ThreadFactory factory() {
        return this::newThread;
    }

    /** Starts a traced virtual thread that runs {@code task}, like {@code Thread.startVirtualThread}. */
    public Thread startVirtualThread(Runnable task) {
        Thread t = newThread(task);
        t.start();
        return t;
    }

    private Thread newThread(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (!exact()) return Thread.ofVirtual().unstarted(new Marked(task));
        int n = nextThread.getAndIncrement();
        Mount mount = new Mount(n);
        Thread t = Jdk.newVirtualThread(mount, task);
        mount.vthread = t;
        if (n < threadIds.length) threadIds[n] = t.threadId();
        return t;
    }

    /**
     * Stops the trace and returns what it recorded. Call it after the traced threads have ended (after the
     * executor's {@code close()}); a stretch that ends later is not recorded. Calling it again returns the same.
     */
    public CarrierTimeline stop() {
        if (result == null) {
            synchronized (this) {
                if (result == null) {
                    long wall = System.nanoTime() - t0;
                    stopped = true;
                    int claimed = next.get();
                    int n = Math.min(claimed, starts.length);
                    int open = awaitOpenStretches(n, STOP_PATIENCE_NANOS);
                    long[] e = new long[n];
                    for (int i = 0; i < n; i++) {
                        long x = (long) ENDS.getAcquire(ends, i);
                        e[i] = x == -1 ? Math.max(wall, starts[i]) : x;
                    }
                    String[] names = new String[MAX_CARRIERS];
                    int carriersSeen = 0;
                    for (int i = 0; i < MAX_CARRIERS; i++) {
                        Object c = carrierTable.get(i);
                        if (c == null) break;
                        names[i] = c instanceof Thread t ? t.getName() : c.toString();
                        carriersSeen = i + 1;
                    }
                    int threadsSeen = Math.min(nextThread.get(), threadIds.length);
                    result = new CarrierTimeline(
                            name,
                            wall,
                            Arrays.copyOf(names, carriersSeen),
                            Arrays.copyOf(carrierOf, n),
                            Arrays.copyOf(threads, n),
                            Arrays.copyOf(starts, n),
                            e,
                            Arrays.copyOf(threadIds, threadsSeen),
                            exact(),
                            claimed - n,
                            untraced.get(),
                            Math.max(0, nextThread.get() - threadIds.length),
                            foreignCarriers.get(),
                            open,
                            fallbackReason);
                }
            }
        }
        return result;
    }

    /** Opens a stretch: its slot, or -1 when the trace is full (the stretch is counted as dropped) or stopped. */
    private int begin(int thread, Object carrier, long start) {
        int i = reserve();
        if (i >= 0) fill(i, thread, carrier, start);
        return i;
    }

    /** A slot for a stretch whose fields come later; -1 when the trace is full or stopped. */
    private int reserve() {
        if (stopped) return -1;
        int i = next.getAndIncrement();
        return i < starts.length ? i : -1;
    }

    private void fill(int slot, int thread, Object carrier, long start) {
        starts[slot] = start - t0;
        threads[slot] = thread;
        carrierOf[slot] = carrierIndex(carrier);
    }

    /** Closes the stretch in {@code slot}: the release makes its other fields visible to {@link #stop()}. */
    private void end(int slot, long end) {
        if (slot >= 0) ENDS.setRelease(ends, slot, end - t0);
    }

    private static final VarHandle ENDS = MethodHandles.arrayElementVarHandle(long[].class);

    /**
     * Waits until every stretch begun before the stop has ended, up to {@code patience}: a thread that has just
     * terminated is still unwinding its last mount when the executor's close() returns. Returns those still open.
     */
    private int awaitOpenStretches(int n, long patienceNanos) {
        long deadline = System.nanoTime() + patienceNanos;
        int open = 0;
        for (int i = 0; i < n; i++) {
            while ((long) ENDS.getAcquire(ends, i) == -1 && System.nanoTime() < deadline) Thread.onSpinWait();
            if ((long) ENDS.getAcquire(ends, i) == -1) open++;
        }
        return open;
    }

    /** The carrier's small number: a lock-free scan of the few carriers seen so far, adding it if new. */
    private int carrierIndex(Object carrier) {
        for (int i = 0; i < MAX_CARRIERS; i++) {
            Object c = carrierTable.get(i);
            if (c == null) {
                if (carrierTable.compareAndSet(i, null, carrier)) return i;
                c = carrierTable.get(i);
            }
            if (c == carrier || (c instanceof String s && s.equals(carrier))) return i;
        }
        foreignCarriers.incrementAndGet();
        return MAX_CARRIERS - 1;
    }

    /**
     * One traced virtual thread's scheduler: the JVM submits the thread's continuation to it at each resumption;
     * it hands itself to the carriers, and runs the continuation between two clock readings. The same continuation
     * object comes every time, and two runs of it may overlap by a few instructions (the next mount can start
     * while this one returns), so a run keeps its figures in locals.
     */
    private final class Mount implements Executor, Runnable {
        private final int thread;
        private volatile Thread vthread;
        private volatile Runnable continuation;
        private volatile int submits;

        Mount(int thread) {
            this.thread = thread;
        }

        @Override
        public void execute(Runnable command) {
            Runnable c = continuation;
            if (c == null) continuation = c = command;
            if (command == c) {
                submits++; // only this thread's own resumptions come here, one at a time
                carriers.execute(this);
            } else {
                // a virtual thread started by a traced one inherits this scheduler: trace it as a thread of its own
                children.computeIfAbsent(command, k -> new Mount(nextThread.getAndIncrement()))
                        .execute(command);
            }
        }

        @Override
        public void run() {
            Thread carrier = Thread.currentThread();
            Runnable c = continuation;
            int before = submits;
            int slot = begin(thread, carrier, System.nanoTime());
            try {
                c.run();
            } finally {
                end(slot, System.nanoTime());
                if (submits == before && resumedWithoutTrace(before)) untraced.incrementAndGet();
            }
        }

        /**
         * Whether this thread, just unmounted and not resubmitted here, is runnable all the same: the JVM handed it
         * to the carriers itself (after {@code Thread.yield()}, or a wake-up that raced with its parking). A waker on
         * another thread sets "unparked" a moment before it resubmits here, so that state waits a few microseconds.
         */
        private boolean resumedWithoutTrace(int before) {
            Thread t = vthread;
            if (t == null) return false; // a child: its Thread is not known
            int s = Jdk.state(t);
            if (Jdk.settled(s)) return false;
            if (Jdk.pending(s)) {
                for (int spin = 0; spin < 2_000 && submits == before; spin++) Thread.onSpinWait();
            }
            return submits == before;
        }
    }

    /** The fallback: a task that notes the carrier it starts on and the one it ends on, from its own name. */
    private final class Marked implements Runnable {
        private final Runnable task;
        private final int thread = nextThread.getAndIncrement();

        Marked(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (thread < threadIds.length)
                threadIds[thread] = Thread.currentThread().threadId();
            long s = System.nanoTime();
            end(begin(thread, carrierName(), s), s);
            // the last mark's slot is taken now: the executor's close() may return before this task's last line
            // runs, and stop() waits only for the slots taken before it
            int last = reserve();
            try {
                task.run();
            } finally {
                if (last >= 0) {
                    long e = System.nanoTime();
                    fill(last, thread, carrierName(), e);
                    end(last, e);
                }
            }
        }
    }

    /** "ForkJoinPool-1-worker-1" from "VirtualThread[#22]/runnable@ForkJoinPool-1-worker-1"; "unknown" if absent. */
    static String carrierName() {
        return carrierName(Thread.currentThread().toString());
    }

    static String carrierName(String virtualThread) {
        int at = virtualThread.lastIndexOf('@');
        return at < 0 || at == virtualThread.length() - 1 ? "unknown carrier" : virtualThread.substring(at + 1);
    }

    /** The JDK's internals the trace needs, looked up once; {@link #AVAILABLE} false without the opens. */
    static final class Jdk {
        static final boolean AVAILABLE;
        static final String WHY_NOT;
        static final ForkJoinPool DEFAULT_SCHEDULER;
        private static final MethodHandle NEW_VIRTUAL_THREAD;
        private static final java.lang.invoke.VarHandle STATE;
        private static final int[] SETTLED, PENDING;
        private static final int SUSPENDED;

        static {
            boolean ok = false;
            String why = null;
            ForkJoinPool pool = null;
            MethodHandle create = null;
            java.lang.invoke.VarHandle state = null;
            int[] settled = {}, pending = {};
            int suspended = 0;
            try {
                var lookup = MethodHandles.lookup();
                Class<?> builders = Class.forName("java.lang.ThreadBuilders");
                Class<?> vt = Class.forName("java.lang.VirtualThread");
                var inBuilders = MethodHandles.privateLookupIn(builders, lookup);
                var inVt = MethodHandles.privateLookupIn(vt, lookup);
                create = inBuilders.findStatic(
                        builders,
                        "newVirtualThread",
                        MethodType.methodType(Thread.class, Executor.class, String.class, int.class, Runnable.class));
                pool = (ForkJoinPool) inVt.findStaticVarHandle(vt, "DEFAULT_SCHEDULER", ForkJoinPool.class)
                        .get();
                state = inVt.findVarHandle(vt, "state", int.class);
                settled = constants(inVt, vt, "PARKED", "TIMED_PARKED", "BLOCKED", "WAIT", "TIMED_WAIT", "TERMINATED");
                pending = constants(inVt, vt, "UNPARKED", "UNBLOCKED");
                suspended = constants(inVt, vt, "SUSPENDED")[0];
                ok = true;
            } catch (IllegalAccessException e) {
                why = "this JVM was started without --add-opens java.base/java.lang=ALL-UNNAMED";
            } catch (ReflectiveOperationException | RuntimeException e) {
                why = "this JDK's virtual threads are built differently (" + e + ")";
            }
            if (ok) {
                try { // link the call site now: the first traced run then pays no lambda-form spinning
                    Thread unused = (Thread)
                            create.invokeExact((Executor) Runnable::run, (String) null, 0, (Runnable) () -> {});
                    Objects.requireNonNull(unused);
                } catch (Throwable e) {
                    ok = false;
                    why = "this JDK's virtual threads are built differently (" + e + ")";
                }
            }
            AVAILABLE = ok;
            WHY_NOT = why;
            DEFAULT_SCHEDULER = pool;
            NEW_VIRTUAL_THREAD = create;
            STATE = state;
            SETTLED = settled;
            PENDING = pending;
            SUSPENDED = suspended;
        }

        private Jdk() {}

        static Thread newVirtualThread(Executor scheduler, Runnable task) {
            try {
                return (Thread) NEW_VIRTUAL_THREAD.invokeExact(scheduler, (String) null, 0, task);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        private static int[] constants(MethodHandles.Lookup in, Class<?> vt, String... names)
                throws ReflectiveOperationException {
            int[] out = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                out[i] = (int) in.findStaticVarHandle(vt, names[i], int.class).get();
            }
            return out;
        }

        /** A virtual thread's state, without the bit that says it is suspended (by a debugger). */
        static int state(Thread t) {
            return (int) STATE.getVolatile(t) & ~SUSPENDED;
        }

        /** Whether the state is one a stretch ends in: parked, blocked, waiting or terminated. */
        static boolean settled(int state) {
            for (int x : SETTLED) if (state == x) return true;
            return false;
        }

        /** Whether the state is "unparked" or "unblocked": runnable, its resubmission a moment away. */
        static boolean pending(int state) {
            for (int x : PENDING) if (state == x) return true;
            return false;
        }
    }
}
