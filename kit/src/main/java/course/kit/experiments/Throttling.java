package course.kit.experiments;

import course.kit.Charts;
import course.kit.Limits;
import course.kit.PoolModel;
import course.kit.Probe;
import course.kit.Progress;
import course.kit.Reproduction;
import course.kit.Run;
import course.kit.RunResult;
import course.kit.Scale;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.knowm.xchart.XYChart;

/**
 * Notebook 05's experiments: virtual threads in front of a resource with a hard capacity, and a
 * {@link Semaphore} that keeps them within it.
 *
 * <p>The resource is a {@link ConnectionPool}: at most {@code capacity} connections out at once; a
 * borrower waits at most a short time for one and then gets {@link PoolExhausted}, as a JDBC pool's
 * connection time-out does. {@link #run(String, Plan)} sends a burst of calls at it, each on its own
 * virtual thread, throttled (or not) as the {@link Plan} says, and records per call what happened and
 * when it held a connection.
 *
 * <p>Counts come from {@link Probe}s and counters, so they are exact; the in-flight curves come from each
 * call's recorded start and end.
 */
public final class Throttling {
    /** Article 002's database pool. */
    public static final int ARTICLE_002_POOL = 50;

    private Throttling() {}

    // ------------------------------------------------------------------ the downstream resource

    /** Thrown by {@link ConnectionPool#borrow()} when no connection came free within the pool's wait. */
    public static final class PoolExhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PoolExhausted(String message) { super(message); }
    }

    /** Thrown by a call that the simulated service fails (after it used its connection). */
    public static final class ServiceError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ServiceError(String message) { super(message); }
    }

    /**
     * A bounded pool of connections, like a JDBC connection pool: at most {@link #capacity()} are out at
     * once. {@link #borrow()} waits up to {@code maxWait} for one and then throws {@link PoolExhausted}.
     * Thread-safe; {@link Connection#close()} gives a connection back (once, however often it is called).
     */
    public static final class ConnectionPool {
        private final int capacity;
        private final Duration maxWait;
        private final Semaphore free;
        private final AtomicInteger inUse = new AtomicInteger();
        private final AtomicInteger peakInUse = new AtomicInteger();
        private final AtomicInteger borrowed = new AtomicInteger();
        private final AtomicInteger timeouts = new AtomicInteger();

        /** A pool of {@code capacity} connections whose borrowers wait at most {@code maxWait}. */
        public ConnectionPool(int capacity, Duration maxWait) {
            if (capacity < 1) throw new IllegalArgumentException("a pool needs at least 1 connection, not " + capacity);
            Objects.requireNonNull(maxWait, "maxWait");
            if (maxWait.isNegative()) throw new IllegalArgumentException("maxWait cannot be negative: " + maxWait);
            this.capacity = capacity;
            this.maxWait = maxWait;
            this.free = new Semaphore(capacity, true);
        }

        /**
         * Takes a connection, waiting at most the pool's {@code maxWait} for one to come free.
         *
         * @throws PoolExhausted        if none came free in time
         * @throws InterruptedException if interrupted while waiting
         */
        public Connection borrow() throws InterruptedException {
            if (!free.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
                timeouts.incrementAndGet();
                throw new PoolExhausted(String.format("no connection free within %d ms (all %d in use)",
                        maxWait.toMillis(), capacity));
            }
            borrowed.incrementAndGet();
            peakInUse.accumulateAndGet(inUse.incrementAndGet(), Math::max);
            return new Connection(this);
        }

        private void giveBack() {
            inUse.decrementAndGet();
            free.release();
        }

        /** How many connections the pool has. */
        public int capacity() { return capacity; }

        /** How long a borrower waits before {@link PoolExhausted}. */
        public Duration maxWait() { return maxWait; }

        /** Connections out right now. */
        public int inUse() { return inUse.get(); }

        /** The most connections that were out at the same moment. */
        public int peakInUse() { return peakInUse.get(); }

        /** How many borrows succeeded. */
        public int borrowed() { return borrowed.get(); }

        /** How many borrows timed out. */
        public int timeouts() { return timeouts.get(); }

        @Override
        public String toString() {
            return String.format("ConnectionPool[capacity=%d, maxWait=%d ms, inUse=%d, peak=%d, borrowed=%d, timeouts=%d]",
                    capacity, maxWait.toMillis(), inUse(), peakInUse(), borrowed(), timeouts());
        }
    }

    /** A borrowed connection; {@link #close()} returns it to its pool. */
    public static final class Connection implements AutoCloseable {
        private final ConnectionPool pool;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Connection(ConnectionPool pool) { this.pool = pool; }

        /** Runs a query that takes {@code latency} (a sleep: the thread waits, as on a socket). */
        public void query(Duration latency) throws InterruptedException {
            if (!open.get()) throw new IllegalStateException("connection already returned to its pool");
            Thread.sleep(latency);
        }

        /** Returns the connection to its pool; later calls do nothing. */
        @Override
        public void close() {
            if (open.compareAndSet(true, false)) pool.giveBack();
        }
    }

    // ------------------------------------------------------------------ the experiment

    /** Where a call takes its permit, if it takes one. */
    public enum Permit {
        /** No semaphore: every call goes straight to the pool. */
        NONE,
        /** The submitting loop acquires the permit, then starts the call's virtual thread (which releases it). */
        BEFORE_THREAD,
        /** The call's virtual thread acquires the permit first, before it borrows a connection. */
        IN_THREAD,
        /** Wrong order: the call borrows a connection first, then waits for a permit while holding it. */
        AFTER_CONNECTION
    }

    /**
     * What to run.
     *
     * @param calls            how many calls, all submitted at once
     * @param capacity         connections in the pool
     * @param connectionWait   how long a call waits for a connection before {@link PoolExhausted}
     * @param hold             how long each call holds its connection (the query's latency)
     * @param permits          the semaphore's permits (ignored with {@link Permit#NONE})
     * @param permit           where the permit is taken
     * @param permitWait       how long a caller waits for a permit before it is rejected; null waits for ever
     * @param releaseInFinally whether the permit is released in a {@code finally} (false: only after a
     *                         call that returned normally — the leak)
     * @param failEvery        every {@code failEvery}-th call (by index) fails with {@link ServiceError}
     *                         after its query; 0 for none
     */
    public record Plan(int calls, int capacity, Duration connectionWait, Duration hold, int permits, Permit permit,
                       Duration permitWait, boolean releaseInFinally, int failEvery) {
        public Plan {
            if (calls < 0) throw new IllegalArgumentException("calls cannot be negative: " + calls);
            if (capacity < 1) throw new IllegalArgumentException("a pool needs at least 1 connection, not " + capacity);
            Objects.requireNonNull(connectionWait, "connectionWait");
            if (connectionWait.isNegative()) throw new IllegalArgumentException("connectionWait cannot be negative");
            Limits.requireDuration("hold", hold);
            Objects.requireNonNull(permit, "permit");
            if (permit != Permit.NONE && permits < 1) {
                throw new IllegalArgumentException("a semaphore needs at least 1 permit, not " + permits);
            }
            if (permitWait != null && permitWait.isNegative()) throw new IllegalArgumentException("permitWait cannot be negative");
            if (failEvery < 0) throw new IllegalArgumentException("failEvery cannot be negative: " + failEvery);
        }

        /** {@code calls} calls straight at a pool: no semaphore. */
        public static Plan unthrottled(int calls, int capacity, Duration connectionWait, Duration hold) {
            return new Plan(calls, capacity, connectionWait, hold, 0, Permit.NONE, null, true, 0);
        }

        /** The same calls behind a semaphore of {@code permits}, acquired in each call's thread, released in finally. */
        public static Plan throttled(int calls, int capacity, Duration connectionWait, Duration hold, int permits) {
            return new Plan(calls, capacity, connectionWait, hold, permits, Permit.IN_THREAD, null, true, 0);
        }

        /** This plan with the permit taken elsewhere. */
        public Plan withPermit(Permit where) {
            return new Plan(calls, capacity, connectionWait, hold, permits, where, permitWait, releaseInFinally, failEvery);
        }

        /** This plan with callers waiting at most {@code wait} for a permit (tryAcquire with a time-out). */
        public Plan withPermitWait(Duration wait) {
            return new Plan(calls, capacity, connectionWait, hold, permits, permit, wait, releaseInFinally, failEvery);
        }

        /** This plan with every {@code n}-th call failing, and the permit released in finally or not. */
        public Plan withFailures(int n, boolean inFinally) {
            return new Plan(calls, capacity, connectionWait, hold, permits, permit, permitWait, inFinally, n);
        }

        /** Whether call {@code index} fails with {@link ServiceError}. */
        public boolean fails(int index) { return failEvery > 0 && (index + 1) % failEvery == 0; }

        /** How many calls are set to fail. */
        public int failing() { return failEvery == 0 ? 0 : calls / failEvery; }
    }

    /** What happened to one call. */
    public enum Result {
        /** The query ran and returned. */
        OK,
        /** The query ran and the service failed it. */
        SERVICE_ERROR,
        /** No connection came free in time. */
        POOL_TIMEOUT,
        /** No permit came free in time: the caller was turned away before it took anything. */
        REJECTED,
        /** The run was interrupted. */
        INTERRUPTED
    }

    /**
     * What a run measured.
     *
     * @param name            the run's label
     * @param plan            what was run
     * @param results         per call, what happened
     * @param workStart       per call, nanos from the run's start to when it had its connection (−1: never)
     * @param workEnd         per call, nanos to when it let the connection go (−1: never)
     * @param threadStart     per call, nanos to when its virtual thread started (−1: never started)
     * @param threadEnd       per call, nanos to when its thread's work ended
     * @param waitNanos       per call, how long it waited for a permit (0 without one)
     * @param elapsedNanos    from the first submission to the executor's close
     * @param peakInFlight    the most calls holding a connection at once (a {@link Probe})
     * @param peakAlive       the most call threads alive at once (a {@link Probe})
     * @param peakConnections the pool's own count of the most connections out at once
     * @param permitsAfter    the semaphore's available permits after the run (0 without one)
     * @param tries           how many times the run was made: 1, or more when a try missed its expected band
     */
    public record Outcome(String name, Plan plan, Result[] results, long[] workStart, long[] workEnd,
                         long[] threadStart, long[] threadEnd, long[] waitNanos, long elapsedNanos,
                         int peakInFlight, int peakAlive, int peakConnections, int permitsAfter, int tries) {
        /** The same outcome under another name, for charts and tables. */
        public Outcome named(String newName) {
            return new Outcome(newName, plan, results, workStart, workEnd, threadStart, threadEnd, waitNanos, elapsedNanos,
                    peakInFlight, peakAlive, peakConnections, permitsAfter, tries);
        }

        /** The longest any caller waited for a permit, in nanos (0 without a semaphore). */
        public long longestWaitNanos() { return Arrays.stream(waitNanos).max().orElse(0); }

        /** Calls with this result. */
        public int count(Result r) { return (int) Arrays.stream(results).filter(x -> x == r).count(); }

        /** Calls that completed. */
        public int ok() { return count(Result.OK); }

        /** Calls that the pool timed out. */
        public int poolTimeouts() { return count(Result.POOL_TIMEOUT); }

        /** Calls turned away for want of a permit. */
        public int rejected() { return count(Result.REJECTED); }

        /** Calls that the service failed. */
        public int serviceErrors() { return count(Result.SERVICE_ERROR); }

        /** Elapsed time in seconds. */
        public double elapsedSeconds() { return elapsedNanos / 1e9; }

        /** Completed calls per second of elapsed time. */
        public double throughputPerSecond() { return elapsedNanos == 0 ? 0 : ok() / elapsedSeconds(); }

        /** Permits lost: the semaphore's permits less those available after the run. */
        public int leakedPermits() { return plan.permit() == Permit.NONE ? 0 : plan.permits() - permitsAfter; }

        /** Nanos from the run's start until the last call's thread started: how spread out the burst arrived. */
        public long arrivalSpreadNanos() { return Arrays.stream(threadStart).max().orElse(0); }

        /** The longest a rejected caller waited before it was turned away, in nanos (0 if none was). */
        public long longestRejectedWaitNanos() {
            long m = 0;
            for (int i = 0; i < results.length; i++) if (results[i] == Result.REJECTED) m = Math.max(m, waitNanos[i]);
            return m;
        }

        /** Calls holding a connection over time: {@code {seconds[], calls[]}} at {@code points} instants. */
        public double[][] inFlightOverTime(int points) { return overTime(workStart, workEnd, points); }

        /** Call threads alive over time: {@code {seconds[], threads[]}} at {@code points} instants. */
        public double[][] aliveOverTime(int points) { return overTime(threadStart, threadEnd, points); }

        private double[][] overTime(long[] starts, long[] ends, int points) {
            return RunResult.countOverTime(starts, ends, elapsedNanos, points);
        }

        @Override
        public String toString() {
            return String.format("%s: %,d calls in %,.0f ms — %,d ok, %,d service errors, %,d pool time-outs, %,d rejected; "
                            + "peak %d holding a connection, %,d threads alive; %,.0f calls/s%s",
                    name, results.length, elapsedNanos / 1e6, ok(), serviceErrors(), poolTimeouts(), rejected(),
                    peakInFlight, peakAlive, throughputPerSecond(),
                    plan.permit() == Permit.NONE ? "" : String.format("; permits left %d of %d", permitsAfter, plan.permits()));
        }
    }

    /**
     * Sends {@code plan.calls()} calls at a fresh {@link ConnectionPool}, each on its own virtual thread,
     * all submitted at once, and waits for every one. Each call borrows a connection, runs a query of
     * {@code plan.hold()}, and returns it; the {@link Plan} says whether and where a semaphore limits
     * them. Shows live progress for long runs. Interrupted, it stops every call and throws.
     */
    public static Outcome run(String name, Plan plan) throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(plan, "plan");
        Limits.requireVirtualThreads(plan.calls());
        int n = plan.calls();
        var db = new ConnectionPool(plan.capacity(), plan.connectionWait());
        var sem = plan.permit() == Permit.NONE ? null : new Semaphore(plan.permits(), true);
        var inFlight = new Probe();
        var alive = new Probe();
        var results = new Result[n];
        long[] workStart = filled(n), workEnd = filled(n), threadStart = filled(n), threadEnd = filled(n);
        long[] waits = new long[n];
        var done = new AtomicInteger();
        long t0 = System.nanoTime();
        boolean interrupted;
        try (var progress = Progress.start(name, n, done::get)) {
            interrupted = Run.submitAndClose(Executors.newVirtualThreadPerTaskExecutor(), executor -> {
                for (int i = 0; i < n; i++) {
                    if (Thread.currentThread().isInterrupted()) throw new InterruptedException();
                    final int index = i;
                    if (plan.permit() == Permit.BEFORE_THREAD) {
                        long w0 = System.nanoTime();
                        boolean got = acquire(sem, plan.permitWait());
                        waits[i] = System.nanoTime() - w0;
                        if (!got) {
                            results[i] = Result.REJECTED;
                            done.incrementAndGet();
                            continue;
                        }
                    }
                    executor.execute(() -> {
                        alive.enter();
                        threadStart[index] = System.nanoTime() - t0;
                        Result result = Result.INTERRUPTED;
                        try {
                            result = call(index, plan, db, sem, inFlight, t0, workStart, workEnd, waits);
                        } finally {
                            results[index] = result;
                            threadEnd[index] = System.nanoTime() - t0;
                            alive.exit();
                            // a permit the submitting loop took is given back as the thread's last act, so that
                            // threads alive never exceed the permits (released in finally, or only after success)
                            if (plan.permit() == Permit.BEFORE_THREAD && (plan.releaseInFinally() || result == Result.OK)) {
                                sem.release();
                            }
                            done.incrementAndGet();
                        }
                    });
                }
            });
        }
        long elapsed = System.nanoTime() - t0;
        if (interrupted) throw new InterruptedException(name + " interrupted; its calls were stopped");
        return new Outcome(name, plan, results, workStart, workEnd, threadStart, threadEnd, waits, elapsed,
                inFlight.peak(), alive.peak(), db.peakInUse(), sem == null ? 0 : sem.availablePermits(), 1);
    }

    /**
     * {@link #run(String, Plan)}, made again (up to {@link PoolMath#MAX_TRIES} times in all) while the outcome
     * misses {@code expected}: a timing band that a stall caused by another process can push a run out of.
     * A stall does not repeat on cue; a wrong prediction misses on every try. The outcome says how many
     * tries it took.
     */
    public static Outcome run(String name, Plan plan, java.util.function.Predicate<Outcome> expected) throws InterruptedException {
        Objects.requireNonNull(expected, "expected");
        Outcome o = null;
        for (int tries = 1; tries <= PoolMath.MAX_TRIES && (o == null || !expected.test(o)); tries++) {
            Outcome r = run(name, plan);
            o = new Outcome(r.name(), r.plan(), r.results(), r.workStart(), r.workEnd(), r.threadStart(), r.threadEnd(),
                    r.waitNanos(), r.elapsedNanos(), r.peakInFlight(), r.peakAlive(), r.peakConnections(), r.permitsAfter(), tries);
        }
        return o;
    }

    /** One call, in the call's own virtual thread. */
    private static Result call(int i, Plan plan, ConnectionPool db, Semaphore sem, Probe inFlight, long t0,
                               long[] workStart, long[] workEnd, long[] waits) {
        boolean holding = false; // a permit this method must give back (BEFORE_THREAD: the caller gives it back)
        Connection early = null;
        try {
            if (plan.permit() == Permit.AFTER_CONNECTION) early = db.borrow(); // wrong: a connection held while waiting
            if (plan.permit() == Permit.IN_THREAD || plan.permit() == Permit.AFTER_CONNECTION) {
                long w0 = System.nanoTime();
                holding = acquire(sem, plan.permitWait());
                waits[i] = System.nanoTime() - w0;
                if (!holding) return Result.REJECTED;
            }
            try (Connection c = early != null ? early : db.borrow()) {
                inFlight.enter();
                workStart[i] = System.nanoTime() - t0;
                try {
                    c.query(plan.hold());
                } finally {
                    workEnd[i] = System.nanoTime() - t0;
                    inFlight.exit();
                }
                if (plan.fails(i)) throw new ServiceError("call " + i + " failed");
            }
            if (holding && !plan.releaseInFinally()) { // the leak: this line is skipped when the call throws
                holding = false;
                sem.release();
            }
            return Result.OK;
        } catch (PoolExhausted e) {
            return Result.POOL_TIMEOUT;
        } catch (ServiceError e) {
            return Result.SERVICE_ERROR;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.INTERRUPTED;
        } finally {
            if (early != null) early.close();
            if (holding && plan.releaseInFinally()) sem.release();
        }
    }

    private static boolean acquire(Semaphore sem, Duration wait) throws InterruptedException {
        if (wait == null) {
            sem.acquire();
            return true;
        }
        return sem.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static long[] filled(int n) {
        long[] a = new long[n];
        Arrays.fill(a, -1);
        return a;
    }

    // ------------------------------------------------------------------ predictions

    /**
     * Pool time-outs predicted for an unthrottled burst: the first {@code capacity} calls get connections;
     * a call that arrived at {@code a} gives up at {@code a + connectionWait}, and the first connection
     * comes back at {@code hold}. So when the whole burst arrived within {@code hold − connectionWait},
     * exactly {@code calls − capacity} time out. With a wider spread {@code s}, later arrivals can still
     * catch returned connections: at most {@code ceil((s + wait) / hold)} more waves of {@code capacity}.
     *
     * @return {lowest, highest} number of time-outs
     */
    public static int[] predictedTimeouts(int calls, int capacity, Duration connectionWait, Duration hold, Duration spread) {
        int all = Math.max(0, calls - capacity);
        long s = spread.toNanos(), w = connectionWait.toNanos(), h = hold.toNanos();
        if (s + w < h) return new int[] {all, all};
        long extraWaves = (s + w + h - 1) / h;
        return new int[] {(int) Math.max(0, calls - capacity * (1 + extraWaves)), all};
    }

    /**
     * Calls accepted from a burst whose callers wait at most {@code permitWait} for one of {@code permits}
     * permits, each call holding its permit for {@code hold}: permits come free in waves at hold, 2·hold, …,
     * so a caller that waits {@code permitWait} can be served by wave {@code floor(permitWait / hold)} at
     * the latest: {@code permits · (1 + floor(permitWait / hold))}. Each permit passes from holder to holder,
     * the k-th holder getting it no earlier than {@code k · hold}; a caller that arrived by {@code spread}
     * gives up by {@code spread + permitWait}, so at most {@code permits · (1 + floor((permitWait + spread) / hold))}
     * callers are served, however the burst arrived.
     *
     * @return {lowest, highest} number of accepted calls
     */
    public static int[] predictedAccepted(int calls, int permits, Duration permitWait, Duration hold, Duration spread) {
        long h = hold.toNanos();
        long waves = 1 + permitWait.toNanos() / h;
        long most = 1 + (permitWait.toNanos() + spread.toNanos()) / h;
        return new int[] {(int) Math.min(calls, permits * waves), (int) Math.min(calls, permits * most)};
    }

    // ------------------------------------------------------------------ charts and tables

    /** Calls holding a connection over time, one line per run, with the capacity as a dashed line. */
    public static XYChart inFlightChart(String title, int capacity, Outcome... runs) {
        var series = new LinkedHashMap<String, double[][]>();
        double end = Arrays.stream(runs).mapToDouble(Outcome::elapsedSeconds).max().orElse(1);
        series.put("predicted cap: " + capacity, new double[][] {{0, end}, {capacity, capacity}});
        for (Outcome r : runs) series.put(r.name(), r.inFlightOverTime(400));
        XYChart c = Charts.lines(title, "time since start (s)", "calls holding a connection", series);
        c.getSeriesCollection().forEach(s -> {
            if (!s.getName().startsWith("predicted")) s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
        });
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        return c;
    }

    /** Call threads alive over time, one line per run. */
    public static XYChart aliveChart(String title, Outcome... runs) {
        var series = new LinkedHashMap<String, double[][]>();
        for (Outcome r : runs) series.put(r.name(), r.aliveOverTime(400));
        XYChart c = Charts.lines(title, "time since start (s)", "call threads alive", series);
        c.getSeriesCollection().forEach(s -> s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE));
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        return c;
    }

    /** One row per run: calls, outcomes, peaks, permits left, elapsed and throughput. */
    public static tech.tablesaw.api.Table table(String title, Outcome... runs) {
        var b = course.kit.Tables.of(title, "run", "calls", "ok", "service errors", "pool time-outs", "rejected",
                "peak holding a connection", "peak threads alive", "permits left", "elapsed (ms)", "calls/s", "tries");
        for (Outcome r : runs) {
            b.row(r.name(), r.results().length, r.ok(), r.serviceErrors(), r.poolTimeouts(), r.rejected(), r.peakInFlight(),
                    r.peakAlive(), r.plan().permit() == Permit.NONE ? "—" : r.permitsAfter() + " of " + r.plan().permits(),
                    course.kit.Tables.round(r.elapsedNanos() / 1e6, 1), course.kit.Tables.round(r.throughputPerSecond(), 0), r.tries());
        }
        return b.table();
    }

    // ------------------------------------------------------------------ reproduction

    /**
     * Article 002: "a DB pool of 50 connections still caps concurrency". A burst of calls on virtual threads
     * against a pool of 50: the peak of queries at once is 50 (the rest time out), and behind a
     * {@code Semaphore(50)} every call completes at 50 / hold calls per second.
     */
    public static List<Reproduction> reproduce(Scale scale) throws InterruptedException {
        Objects.requireNonNull(scale, "scale");
        int calls = scale.pick(1_000, 500);
        Duration hold = scale.pick(Duration.ofMillis(250), Duration.ofMillis(100));
        Duration wait = hold.dividedBy(4);
        int cap = ARTICLE_002_POOL;
        Outcome raw = run("unthrottled", Plan.unthrottled(calls, cap, wait, hold));
        Duration band = PoolModel.batchTime(calls, cap, hold).plus(PoolModel.slack(PoolModel.waves(calls, cap), 0, calls));
        Outcome thr = run("semaphore of 50", Plan.throttled(calls, cap, wait, hold, cap), o -> o.elapsedNanos() <= band.toNanos());
        String note = String.format("%,d calls at once, each holding a connection %d ms; pool of %d, wait %d ms", calls,
                hold.toMillis(), cap, wait.toMillis());
        return List.of(
                new Reproduction("queries at once, " + String.format("%,d", calls) + " virtual threads vs a pool of 50",
                        "002", "50 connections cap concurrency", cap, raw.peakConnections(), "queries",
                        note + String.format("; unthrottled: %,d of %,d timed out", raw.poolTimeouts(), calls)),
                new Reproduction("throughput behind Semaphore(50) = 50 / hold", "002", "50 connections cap concurrency",
                        PoolMath.littleThroughput(cap, hold), thr.throughputPerSecond(), "calls/s",
                        note + String.format("; throttled: %,d ok, %,d errors%s", thr.ok(), calls - thr.ok(),
                                thr.tries() > 1 ? ", measured on try " + thr.tries() : "")));
    }
}
