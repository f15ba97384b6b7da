package course.exercises.threadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import course.base.Failure;
import course.base.TestOrder;
import course.base.probe.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** The course's tests for exercise 01. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("ThreadCost.startAll")
class ThreadCostTest {

    private static final Runnable NOTHING = () -> { };

    @TestOrder(1)
    @Property(seed = "1000001", tries = 8)
    @net.jqwik.api.Tag("points:1")
    @Label("any negative count throws IllegalArgumentException and runs nothing")
    void negativeCountIsRejected(@ForAll @IntRange(min = Integer.MIN_VALUE, max = -1) int count,
                                 @ForAll("builders") Builder builder) {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(IllegalArgumentException.class,
                () -> ThreadCost.startAll(builder.create(), count, runs::incrementAndGet),
                "startAll(builder, " + count + ", task) must throw IllegalArgumentException");
        assertEquals(0, runs.get(), "tasks that ran for count " + count);
    }

    @Order(2)
    @Test
    @Tag("points:1")
    @DisplayName("count 0 runs nothing and returns a non-negative duration")
    void zeroStartsNothing() throws InterruptedException {
        Probe probe = new Probe();
        Duration elapsed = ThreadCost.startAll(Thread.ofVirtual(), 0, probe.wrap(NOTHING));
        assertNotNull(elapsed, "startAll must return a Duration, not null");
        assertFalse(elapsed.isNegative(), "the elapsed time must not be negative, was " + elapsed);
        assertEquals(0, probe.entered(), "tasks that ran for count 0");
    }

    @Order(3)
    @Test
    @Tag("points:2")
    @DisplayName("runs the task exactly count times, on threads made by the builder (virtual)")
    void runsTaskCountTimesOnVirtualThreads() throws InterruptedException {
        Probe probe = new Probe();
        ThreadCost.startAll(Thread.ofVirtual(), 2_000, probe.wrap(NOTHING));
        assertEquals(2_000, probe.entered(), "tasks that ran");
        assertEquals(2_000, probe.virtualCount(), "tasks that ran on a virtual thread (the builder was Thread.ofVirtual())");
    }

    @Order(4)
    @Test
    @Tag("points:1")
    @DisplayName("uses the builder it is given: Thread.ofPlatform() gives platform threads")
    void usesTheGivenPlatformBuilder() throws InterruptedException {
        Probe probe = new Probe();
        ThreadCost.startAll(Thread.ofPlatform(), 20, probe.wrap(NOTHING));
        assertEquals(20, probe.entered(), "tasks that ran");
        assertEquals(20, probe.platformCount(), "tasks that ran on a platform thread (the builder was Thread.ofPlatform())");
    }

    @TestOrder(5)
    @Property(seed = "1000005", tries = 8)
    @net.jqwik.api.Tag("points:2")
    @Label("runs the task exactly count times, for counts from 0 to thousands, on either kind of thread")
    void runsTheTaskExactlyCountTimes(@ForAll("runs") Run run) throws Throwable {
        AtomicInteger runs = new AtomicInteger();
        Duration elapsed = startAllWithin(run.builder(), run.count(), runs::incrementAndGet);
        assertNotNull(elapsed, "startAll must return a Duration, not null");
        assertEquals(run.count(), runs.get(), "tasks that ran for count " + run.count());
    }

    @Order(6)
    @Test
    @Tag("points:2")
    @DisplayName("each run of the task is on a new thread of its own: 100 runs, 100 threads")
    void eachRunHasANewThreadOfItsOwn() throws InterruptedException {
        Probe probe = new Probe();
        ThreadCost.startAll(Thread.ofVirtual(), 100, probe.wrap(NOTHING));
        assertEquals(100, probe.entered(), "tasks that ran");
        assertEquals(100, probe.threads(),
                "distinct threads that ran the task (threads reused from a pool or a loop of workers give fewer)");
    }

    @TestOrder(7)
    @Property(seed = "1000007", tries = 10)
    @net.jqwik.api.Tag("points:2")
    @Label("each run is on a new thread of its own, made by the given builder (its kind and its names)")
    void eachRunIsOnANewThreadFromTheBuilder(@ForAll("runs") Run run) throws Throwable {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        Queue<String> names = new ConcurrentLinkedQueue<>();
        AtomicInteger wrongKind = new AtomicInteger();
        Runnable task = () -> {
            Thread me = Thread.currentThread();
            threads.add(me);
            names.add(me.getName());
            if (me.isVirtual() != run.builder().virtual()) {
                wrongKind.incrementAndGet();
            }
        };
        Call call = Call.start(run.builder().create(), run.count(), task, run.builder().toString());
        call.await();
        assertFalse(threads.contains(call.thread()), "a task ran on the thread that called startAll");
        assertEquals(run.count(), names.size(), "tasks that ran");
        assertEquals(0, wrongKind.get(), "tasks that ran on a thread of the other kind (the builder was "
                + run.builder() + ")");
        assertEquals(run.count(), threads.size(),
                "distinct threads that ran the task (threads reused from a pool or a loop of workers give fewer)");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < run.count(); i++) {
            expected.add(run.builder().prefix() + i);
        }
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(Comparator.comparingInt(n -> n.startsWith(run.builder().prefix())
                ? Integer.parseInt(n.substring(run.builder().prefix().length())) : -1));
        assertEquals(expected, sorted, "the names of the threads that ran the task: every thread comes from "
                + run.builder() + ", which names them " + run.builder().prefix() + "0, "
                + run.builder().prefix() + "1, …");
    }

    @Order(8)
    @Test
    @Tag("points:3")
    @Timeout(15)
    @DisplayName("starts every thread before joining any: all 2,000 threads are running at once")
    void startsAllBeforeJoiningAny() throws InterruptedException {
        int count = 2_000; // more than a small pool or a batch of threads would hold
        Probe probe = new Probe();
        CountDownLatch allStarted = new CountDownLatch(count);
        AtomicBoolean gaveUp = new AtomicBoolean();
        // Each task waits until every task has started. If the threads are joined one by one, the first task
        // waits in vain: it gives up after a generous guard and the later tasks do not wait at all.
        Runnable task = probe.wrap((Runnable) () -> {
            allStarted.countDown();
            if (!gaveUp.get()) {
                try {
                    if (!allStarted.await(3, TimeUnit.SECONDS)) {
                        gaveUp.set(true);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        ThreadCost.startAll(Thread.ofVirtual(), count, task);
        assertEquals(count, probe.entered(), "tasks that ran");
        assertEquals(count, probe.peak(),
                "threads running at the same moment (joining each thread right after starting it gives 1)");
    }

    @TestOrder(9)
    @Property(seed = "1000009", tries = 8)
    @net.jqwik.api.Tag("points:2")
    @Label("starts every thread before joining any, whatever the count: all of them are running at once")
    void startsAllBeforeJoiningAnyWhateverTheCount(@ForAll("runs") Run run) throws Throwable {
        int count = run.count();
        CountDownLatch allStarted = new CountDownLatch(count);
        AtomicInteger gaveUp = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        // Each task waits until every task has started. If some threads are joined before the last is started,
        // a task waits in vain: it gives up after a guard, and so do the others already waiting.
        Runnable task = () -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            allStarted.countDown();
            try {
                if (gaveUp.get() > 0 || !allStarted.await(2, TimeUnit.SECONDS)) {
                    gaveUp.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inFlight.decrementAndGet();
            }
        };
        startAllWithin(run.builder(), count, task);
        assertEquals(count, peak.get(),
                "threads running at the same moment, for count " + count + " (joining some threads before starting"
                        + " the others gives fewer)");
        assertEquals(0, gaveUp.get(), "tasks that waited 2 s in vain for every task to start");
    }

    @Order(10)
    @Test
    @Tag("points:2")
    @DisplayName("returns only after every thread has finished its task")
    void returnsAfterAllTerminated() throws InterruptedException {
        int count = 20;
        AtomicInteger order = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        // The first thread to run works longest and the last one shortest, so waiting for only some of the
        // threads (or none) returns before every task has finished.
        Runnable task = () -> {
            int n = order.getAndIncrement();
            try {
                Thread.sleep(10L * (count - n));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.incrementAndGet();
        };
        ThreadCost.startAll(Thread.ofVirtual(), count, task);
        assertEquals(count, finished.get(), "tasks finished when startAll returned");
    }

    @TestOrder(11)
    @Property(seed = "1000011", tries = 5)
    @net.jqwik.api.Tag("points:2")
    @Label("returns only after every run has ended, whichever run ends last")
    void returnsOnlyAfterEveryRunHasEnded(@ForAll("smallRuns") Run run, @ForAll("fractions") double where)
            throws Throwable {
        int count = run.count();
        int last = (int) (where * (count - 1)); // the run, in the order the runs begin, that ends last
        AtomicInteger order = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean returned = new AtomicBoolean();
        Runnable task = () -> {
            int n = order.getAndIncrement();
            try {
                if (n == last) {
                    release.await(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ended.incrementAndGet();
            }
        };
        // Run `last` is held until the caller is seen waiting, for 20 ms on end, with every other run ended (or
        // startAll returned, or 3 s went by): an implementation that does not wait for that run returns while it
        // is still held.
        Call call = Call.start(run.builder().create(), count, task, run.builder().toString());
        Thread caller = call.thread();
        Thread releaser = Thread.ofPlatform().daemon().start(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            long waitingSince = 0;
            while (!returned.get() && System.nanoTime() < deadline) {
                Thread.State state = caller.getState();
                boolean waiting = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
                long now = System.nanoTime();
                if (!(ended.get() >= count - 1 && waiting)) {
                    waitingSince = 0;
                } else if (waitingSince == 0) {
                    waitingSince = now;
                } else if (now - waitingSince > TimeUnit.MILLISECONDS.toNanos(20)) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            release.countDown();
        });
        try {
            call.await();
            int endedAtReturn = ended.get();
            assertEquals(count, endedAtReturn, "runs that had ended when startAll returned (run " + last
                    + " in the order they began ended last; the others ended long before)");
        } finally {
            returned.set(true);
            release.countDown();
            releaser.join(Duration.ofSeconds(5));
        }
    }

    @Order(12)
    @Test
    @Tag("points:1")
    @DisplayName("the returned duration covers the threads' work, and no more than the call")
    void durationCoversTheWork() throws InterruptedException {
        // A wall time read to the nanosecond is a whole number of milliseconds once in a million calls; one that
        // comes out whole five times running was read from a millisecond clock, or rounded to one.
        List<Duration> wholeMillis = new ArrayList<>();
        for (int call = 0; call < 5; call++) {
            long before = System.nanoTime();
            Duration elapsed = ThreadCost.startAll(Thread.ofVirtual(), 10, () -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Duration spent = Duration.ofNanos(System.nanoTime() - before);
            assertNotNull(elapsed, "startAll must return a Duration, not null");
            assertTrue(elapsed.compareTo(Duration.ofMillis(50)) >= 0,
                    "every task sleeps 50 ms, so the elapsed time must be at least PT0.05S, was " + elapsed);
            assertTrue(elapsed.compareTo(spent) <= 0,
                    "the elapsed time cannot be longer than the call to startAll (" + spent + "), was " + elapsed);
            if (elapsed.toNanos() % 1_000_000 != 0) {
                return;
            }
            wholeMillis.add(elapsed);
        }
        fail("the elapsed time must be to the nanosecond, but five calls each returned a whole number of"
                + " milliseconds " + wholeMillis + ": read System.nanoTime(), and keep every nanosecond");
    }

    @TestOrder(13)
    @Property(seed = "1000013", tries = 8)
    @net.jqwik.api.Tag("points:2")
    @Label("the duration spans every run, to the nanosecond, and is never longer than the call")
    void durationSpansEveryRunAndNoMore(@ForAll("smallRuns") Run run, @ForAll("works") Duration work)
            throws Throwable {
        AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
        Runnable task = () -> {
            firstStart.accumulateAndGet(System.nanoTime(), Math::min);
            try {
                Thread.sleep(work);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lastEnd.accumulateAndGet(System.nanoTime(), Math::max);
        };
        long before = System.nanoTime();
        Duration elapsed = startAllWithin(run.builder(), run.count(), task);
        Duration call = Duration.ofNanos(System.nanoTime() - before);
        assertNotNull(elapsed, "startAll must return a Duration, not null");
        assertFalse(elapsed.isNegative(), "the elapsed time must not be negative, was " + elapsed);
        if (run.count() > 0) {
            Duration runs = Duration.ofNanos(lastEnd.get() - firstStart.get());
            assertTrue(elapsed.compareTo(runs) >= 0, "from the first run's start to the last run's end took " + runs
                    + ", so the elapsed time must be at least that, was " + elapsed);
        }
        assertTrue(elapsed.compareTo(call) <= 0,
                "the elapsed time cannot be longer than the call to startAll (" + call + "), was " + elapsed);
    }

    @TestOrder(14)
    @Property(seed = "1000014", tries = 10)
    @net.jqwik.api.Tag("points:2")
    @Label("a run that throws (any exception or error) ends only its own thread: nothing rethrown, nobody stopped")
    void aFailingRunEndsOnlyItsOwnThread(@ForAll("failingRuns") FailingRun run, @ForAll Failure.Kind kind,
                                         @ForAll boolean withCause) throws Throwable {
        Failure failure = new Failure(kind, withCause);
        int count = run.count();
        AtomicInteger order = new AtomicInteger();
        Set<Thread> failing = ConcurrentHashMap.newKeySet();
        CountDownLatch failersBegan = new CountDownLatch(run.failing().size());
        Queue<String> troubles = new ConcurrentLinkedQueue<>();
        AtomicInteger completed = new AtomicInteger();
        // The runs that do not fail wait until every failing run's thread has terminated, then end normally:
        // they see each failure happen, and must be neither interrupted nor left unstarted.
        Runnable task = () -> {
            int n = order.getAndIncrement();
            if (n >= count) {
                troubles.add("run " + n + ": more runs than count");
                return;
            }
            if (run.failing().contains(n)) {
                failing.add(Thread.currentThread());
                failersBegan.countDown();
                failure.throwIt("run " + n + " fails on purpose");
            }
            try {
                if (!failersBegan.await(2, TimeUnit.SECONDS)) {
                    troubles.add("run " + n + " waited 2 s in vain for the failing runs to begin");
                    return;
                }
                for (Thread f : failing) {
                    if (!f.join(Duration.ofSeconds(2))) {
                        troubles.add("run " + n + " waited 2 s in vain for a failing run's thread to end");
                        return;
                    }
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                completed.incrementAndGet();
            } catch (InterruptedException e) {
                troubles.add("run " + n + " was interrupted after a run failed");
            }
        };
        Thread.Builder builder = run.builder().create().uncaughtExceptionHandler((t, e) -> { });
        Throwable escaped = null;
        try {
            Call.start(builder, count, task, run.builder().toString()).await();
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            escaped = t;
        }
        String failures = run.failing().size() + " of " + count + " runs threw " + failure;
        assertNull(escaped, failures + ": startAll must not rethrow it, but threw " + escaped);
        assertEquals(List.of(), List.copyOf(troubles), failures + ": what the other runs saw");
        assertEquals(count - run.failing().size(), completed.get(), failures + ": runs that ended normally");
    }

    /** A call of startAll on a platform thread of its own, which a test may watch; it waits for it at most 10 s. */
    record Call(Thread thread, AtomicReference<Duration> result, AtomicReference<Throwable> thrown, String shown) {
        static Call start(Thread.Builder builder, int count, Runnable task, String shown) {
            AtomicReference<Duration> result = new AtomicReference<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread thread = Thread.ofPlatform().daemon().name("startAll-caller").start(() -> {
                try {
                    result.set(ThreadCost.startAll(builder, count, task));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            return new Call(thread, result, thrown, "startAll(" + shown + ", " + count + ", task)");
        }

        /** What startAll returned; what it threw is thrown again. */
        Duration await() throws Throwable {
            if (!thread.join(Duration.ofSeconds(10))) {
                fail(shown + " did not return within 10 s");
            }
            if (thrown.get() != null) {
                throw thrown.get();
            }
            return result.get();
        }
    }

    private static Duration startAllWithin(Builder builder, int count, Runnable task) throws Throwable {
        return Call.start(builder.create(), count, task, builder.toString()).await();
    }

    /** A thread builder to make afresh for each try: its kind, and the names it gives, prefix0, prefix1, … */
    record Builder(boolean virtual, String prefix) {
        Thread.Builder create() {
            return virtual ? Thread.ofVirtual().name(prefix, 0) : Thread.ofPlatform().daemon().name(prefix, 0);
        }

        @Override
        public String toString() {
            return (virtual ? "Thread.ofVirtual()" : "Thread.ofPlatform().daemon()") + ".name(\"" + prefix + "\", 0)";
        }
    }

    /** The arguments of a call: a builder and a count. */
    record Run(Builder builder, int count) {
    }

    /** A call in which the runs numbered in {@code failing} (in the order the runs begin) throw. */
    record FailingRun(Builder builder, int count, Set<Integer> failing) {
    }

    private static Arbitrary<String> prefixes() {
        return Arbitraries.of("w-", "run#", "t");
    }

    @Provide
    Arbitrary<Builder> builders() {
        return Combinators.combine(Arbitraries.of(true, false), prefixes()).as(Builder::new);
    }

    /** Counts from 0 to 5,000 virtual threads, or to 100 platform threads. */
    @Provide
    Arbitrary<Run> runs() {
        return Arbitraries.of(true, false).flatMap(virtual -> {
            Arbitrary<Integer> counts = virtual
                    ? Arbitraries.frequencyOf(
                            Tuple.of(1, Arbitraries.integers().between(0, 2)),
                            Tuple.of(2, Arbitraries.integers().between(0, 20)),
                            Tuple.of(2, Arbitraries.integers().between(0, 1_000)),
                            Tuple.of(1, Arbitraries.integers().between(1_000, 3_000)))
                    : Arbitraries.frequencyOf(
                            Tuple.of(1, Arbitraries.integers().between(0, 2)),
                            Tuple.of(3, Arbitraries.integers().between(0, 20)),
                            Tuple.of(1, Arbitraries.integers().between(0, 100)));
            return Combinators.combine(prefixes(), counts).as((p, c) -> new Run(new Builder(virtual, p), c));
        });
    }

    /** Counts from 1 to 200 virtual threads, or to 20 platform threads. */
    @Provide
    Arbitrary<Run> smallRuns() {
        return Arbitraries.of(true, false).flatMap(virtual -> Combinators.combine(
                        prefixes(), Arbitraries.integers().between(1, virtual ? 200 : 20))
                .as((p, c) -> new Run(new Builder(virtual, p), c)));
    }

    /** Where, from 0 (the first) to 1 (the last), among the runs in the order they begin. */
    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, 1);
    }

    /** How long each run works: up to 3 ms, to the nanosecond. */
    @Provide
    Arbitrary<Duration> works() {
        return Arbitraries.longs().between(0, 3_000_000).map(Duration::ofNanos);
    }

    /** 1 to 64 virtual threads or 1 to 16 platform threads, of which 1 to 8 runs fail. */
    @Provide
    Arbitrary<FailingRun> failingRuns() {
        return builders().flatMap(builder -> Arbitraries.integers().between(1, builder.virtual() ? 64 : 16)
                .flatMap(count -> Arbitraries.integers().between(0, count - 1).set()
                        .ofMinSize(1).ofMaxSize(Math.min(count, 8))
                        .map(failing -> new FailingRun(builder, count, failing))));
    }
}
