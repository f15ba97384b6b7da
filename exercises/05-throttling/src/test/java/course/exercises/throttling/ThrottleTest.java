package course.exercises.throttling;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Failure;
import course.base.TestOrder;
import course.base.probe.Probe;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import net.jqwik.api.AfterFailureMode;
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

/** The course's tests for exercise 05. Each test's {@code points:N} tag is what it is worth. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Throttle.callAll")
class ThrottleTest {

    /** An {@link Error} a call throws: a permit must come back whatever the call throws. */
    static final class CallError extends Error {
        CallError(String message) {
            super(message);
        }
    }

    /** {@code callAll} run on a thread of its own, so that a test can watch it while the calls run. */
    static final class Caller<T> {
        final AtomicReference<Object> outcome = new AtomicReference<>();
        /** How many calls had ended (by the probe) when callAll returned or threw. */
        final AtomicInteger exitedWhenItEnded = new AtomicInteger(-1);
        final Thread thread;

        Caller(List<? extends Callable<T>> calls, int maxInFlight, Probe probe) {
            thread = Thread.ofPlatform().name("callAll").start(() -> {
                try {
                    outcome.set(Throttle.callAll(calls, maxInFlight));
                } catch (Exception | Error e) {
                    outcome.set(e);
                }
                exitedWhenItEnded.set(probe.exited());
            });
        }

        /**
         * Waits until callAll has ended, or until no call has ended for {@code stall} while it has not: true if it
         * ended. Correct code keeps finishing calls; code whose calls wait for ever makes no progress.
         */
        boolean awaitEnd(Probe probe, Duration stall) throws InterruptedException {
            int before = probe.exited();
            while (!thread.join(stall)) {
                int now = probe.exited();
                if (now == before) {
                    return false;
                }
                before = now;
            }
            return true;
        }

        /**
         * Waits until {@code latch} opens or callAll ends, at most {@code guard}. A callAll that ended having run
         * no call, with an unchecked exception of its own (a stub, a bad argument check), has that exception
         * rethrown here, so that the report shows it as it is.
         */
        void awaitOrRethrow(CountDownLatch latch, Probe probe, Duration guard) throws InterruptedException {
            long end = System.nanoTime() + guard.toNanos();
            while (!latch.await(10, TimeUnit.MILLISECONDS) && thread.isAlive() && System.nanoTime() < end) {
                // wait
            }
            rethrowOwnFailure(probe);
        }

        /**
         * Rethrows the unchecked exception of a callAll that ended having run no call (a stub, a bad argument
         * check), so that the report shows it as it is rather than the assertions it made fail.
         */
        void rethrowOwnFailure(Probe probe) {
            if (!thread.isAlive() && probe.entered() == 0 && outcome.get() instanceof RuntimeException e) {
                throw e;
            }
        }

        /** Interrupts a callAll that does not end, and waits a little for it. */
        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join(Duration.ofSeconds(2));
        }
    }

    /** How long a check waits for something that correct code does at once, before it fails. */
    private static final Duration GUARD = Duration.ofSeconds(2);

    /** Waits until {@code condition} holds, at most {@code guard}: true if it held. */
    private static boolean awaitTrue(BooleanSupplier condition, Duration guard) throws InterruptedException {
        long end = System.nanoTime() + guard.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** Returns {@code t} from a call: a call may throw checked exceptions and errors alike. */
    private static Exception thrown(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        return (Exception) t;
    }

    /**
     * The threads of this JVM as its thread dump shows them ({@code HotSpotDiagnosticMXBean.dumpThreads}, which
     * lists virtual threads too, with their states and stacks).
     *
     * @param tid   the thread's id
     * @param name  its name (a virtual thread's is usually empty)
     * @param state its state
     * @param stack its frames, innermost first
     */
    record DumpedThread(long tid, String name, String state, List<String> stack) {
        private static final Pattern TID = Pattern.compile("\"tid\": \"(\\d+)\"");
        private static final Pattern NAME = Pattern.compile("\"name\": \"([^\"]*)\"");
        private static final Pattern STATE = Pattern.compile("\"state\": \"(\\w+)\"");
        private static final Pattern STACK = Pattern.compile("\"stack\": \\[([^\\]]*)\\]");
        private static final Pattern FRAME = Pattern.compile("\"([^\"]*)\"");

        static List<DumpedThread> all() {
            try {
                Path file = Files.createTempDirectory("threads").resolve("dump.json");
                try {
                    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                            .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                    String json = Files.readString(file);
                    List<DumpedThread> threads = new ArrayList<>();
                    // One chunk per thread: from its "tid" to the next one's.
                    String[] chunks = json.split("(?=\"tid\": \")");
                    for (String chunk : Arrays.copyOfRange(chunks, 1, chunks.length)) {
                        Matcher tid = TID.matcher(chunk);
                        Matcher name = NAME.matcher(chunk);
                        Matcher state = STATE.matcher(chunk);
                        Matcher stack = STACK.matcher(chunk);
                        if (!(tid.find() && name.find() && state.find() && stack.find())) {
                            return null; // a format this test does not know
                        }
                        List<String> frames = new ArrayList<>();
                        Matcher f = FRAME.matcher(stack.group(1));
                        while (f.find()) {
                            frames.add(f.group(1).replace("\\/", "/"));
                        }
                        threads.add(new DumpedThread(Long.parseLong(tid.group(1)), name.group(1), state.group(1),
                                frames));
                    }
                    return threads;
                } finally {
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(file.getParent());
                }
            } catch (IOException | RuntimeException e) {
                return null; // no dump: the caller falls back to what it can see without one
            }
        }

        /** Whether callAll's code (the learner's classes, not the tests') is on this thread's stack. */
        boolean runsCallAll() {
            return stack.stream().anyMatch(f -> f.startsWith("course.exercises.throttling.")
                    && !f.startsWith("course.exercises.throttling.ThrottleTest"));
        }

        /** Whether the tests' own code is on this thread's stack (a call the test holds, the test itself). */
        boolean runsTestCode() {
            return stack.stream().anyMatch(f -> f.startsWith("course.exercises.throttling.ThrottleTest"));
        }

        boolean parked() {
            return state.equals("WAITING") || state.equals("TIMED_WAITING");
        }

        /**
         * Parked with a time-out, and not merely waiting for the calls to end (an executor's close, a join): a
         * thread that waits for a permit this way may give up and run its call without one.
         */
        boolean waitsWithATimeOut() {
            return state.equals("TIMED_WAITING") && stack.stream().noneMatch(f -> f.contains("awaitTermination")
                    || f.contains(".close(") || f.contains("Thread.join") || f.contains("StructuredTaskScope"));
        }
    }

    /**
     * Runs {@code calls} through callAll and holds each call at a gate of its own until the test releases it, so
     * that the test decides which call finishes when. {@link #run} releases the calls one at a time, and checks
     * before each release that exactly {@code min(maxInFlight, calls not yet released)} are in flight.
     */
    static final class Conductor {
        final int n;
        final int maxInFlight;
        final Probe probe = new Probe();
        final List<CountDownLatch> gates = new ArrayList<>();
        final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
        final Set<Long> callThreads = ConcurrentHashMap.newKeySet();
        final List<Callable<Object>> calls = new ArrayList<>();
        /** The order in which the calls ran, by index. */
        final List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        Caller<Object> caller;

        /** {@code outcomes.get(i)}: what call i returns, or the {@link Throwable} it throws. */
        Conductor(List<?> outcomes, int maxInFlight) {
            this.n = outcomes.size();
            this.maxInFlight = maxInFlight;
            for (int i = 0; i < n; i++) {
                int k = i;
                CountDownLatch gate = new CountDownLatch(1);
                gates.add(gate);
                Object outcome = outcomes.get(i);
                calls.add(probe.wrap(() -> {
                    callThreads.add(Thread.currentThread().threadId());
                    ran.add(k);
                    inFlight.add(k);
                    try {
                        gate.await(10, TimeUnit.SECONDS);
                        if (outcome instanceof Throwable t) {
                            throw thrown(t);
                        }
                        return outcome;
                    } finally {
                        inFlight.remove(k);
                    }
                }));
            }
        }

        /**
         * Starts callAll and releases the calls one at a time: each time the one that comes first in
         * {@code releaseOrder} among those in flight. Before the first release it waits until every thread of
         * callAll that is not running a call is parked, and, if one of them waits with a time-out, keeps the calls
         * held for up to {@code hold} (or until a call runs beyond the limit). Returns callAll's outcome.
         */
        Object run(List<Integer> releaseOrder, Duration hold) throws InterruptedException {
            caller = new Caller<>(calls, maxInFlight, probe);
            try {
                for (int released = 0; released < n; released++) {
                    int expected = Math.min(maxInFlight, n - released);
                    int before = released;
                    awaitTrue(() -> inFlight.size() >= expected || !caller.thread.isAlive(), GUARD);
                    caller.rethrowOwnFailure(probe);
                    if (released == 0 && n > maxInFlight && hold != null) {
                        settle(hold);
                    }
                    int running = inFlight.size();
                    assertEquals(expected, running, running < expected
                            ? "calls in flight while " + (n - before - running) + " more waited for a permit, after "
                                    + before + " of " + n + " calls had finished (maxInFlight = " + maxInFlight
                                    + "): a call that ends must let a waiting one start at once"
                            : "calls in flight at once (maxInFlight = " + maxInFlight + ", " + n + " calls, " + before
                                    + " finished)");
                    int next = releaseOrder.stream().filter(inFlight::contains).findFirst().orElseThrow();
                    gates.get(next).countDown();
                    assertTrue(awaitTrue(() -> !inFlight.contains(next), GUARD), "call " + next + " did not end");
                }
                assertTrue(caller.awaitEnd(probe, GUARD), "callAll did not return after every call had finished");
            } finally {
                gates.forEach(CountDownLatch::countDown);
                if (!caller.thread.join(Duration.ofSeconds(1))) {
                    caller.stop();
                }
            }
            assertEquals(Math.min(maxInFlight, n), probe.peak(),
                    "calls in flight at the same moment (maxInFlight = " + maxInFlight + ", " + n + " calls)");
            return caller.outcome.get();
        }

        /**
         * Waits (at most {@link #GUARD}) until every thread of callAll that runs no call is parked, then, while any
         * of them waits with a time-out, holds the calls for up to {@code hold}, failing as soon as a call runs
         * beyond the limit. Code that waits for its permits without a time-out is never held.
         */
        private void settle(Duration hold) throws InterruptedException {
            long end = System.nanoTime() + GUARD.toNanos();
            List<DumpedThread> waiting;
            do {
                List<DumpedThread> all = DumpedThread.all();
                if (all == null) {
                    return; // no thread dump in this JVM
                }
                waiting = all.stream()
                        .filter(t -> t.runsCallAll() && !t.runsTestCode() && !callThreads.contains(t.tid()))
                        .toList();
                // A virtual thread that was started and has not run yet: no stack, no name.
                boolean starting = all.stream().anyMatch(t -> t.stack().isEmpty() && t.name().isEmpty()
                        && t.state().equals("RUNNABLE"));
                Thread.State callerState = caller.thread.getState();
                boolean callerParked = callerState == Thread.State.WAITING || callerState == Thread.State.TIMED_WAITING
                        || callerState == Thread.State.TERMINATED;
                if (callerParked && !starting && waiting.stream().allMatch(DumpedThread::parked)) {
                    break;
                }
                Thread.sleep(2);
            } while (System.nanoTime() - end < 0);
            boolean callerTimed = caller.thread.getState() == Thread.State.TIMED_WAITING && Arrays.stream(
                    caller.thread.getStackTrace()).map(String::valueOf).noneMatch(f -> f.contains("awaitTermination")
                    || f.contains(".close(") || f.contains("Thread.join") || f.contains("StructuredTaskScope"));
            if (!callerTimed && waiting.stream().noneMatch(DumpedThread::waitsWithATimeOut)) {
                return;
            }
            long holdEnd = System.nanoTime() + hold.toNanos();
            while (System.nanoTime() - holdEnd < 0) {
                assertTrue(inFlight.size() <= maxInFlight, inFlight.size() + " calls were in flight at once "
                        + "(maxInFlight = " + maxInFlight + "): a call ran without a permit after waiting for one "
                        + "with a time-out. A call waits for its permit as long as it takes");
                Thread.sleep(5);
            }
        }
    }

    /** Orders of release: which held call the test lets finish first. */
    private static Arbitrary<List<Integer>> releaseOrders(int n) {
        return Arbitraries.shuffle(IntStream.range(0, n).boxed().toList());
    }

    /** Limits from 1 to a few above {@code n}, and sometimes {@code Integer.MAX_VALUE}. */
    private static Arbitrary<Integer> limits(int n) {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.integers().between(1, n + 3)),
                Tuple.of(1, Arbitraries.just(Integer.MAX_VALUE)));
    }

    /**
     * A run of callAll under the test's control.
     *
     * @param outcomes     what each call returns, or the failure it throws
     * @param maxInFlight  the limit
     * @param releaseOrder the order in which the test lets the held calls finish (the first of them in flight)
     */
    record Plan(List<Object> outcomes, int maxInFlight, List<Integer> releaseOrder) {
        @Override
        public String toString() {
            return outcomes.size() + (outcomes.size() == 1 ? " call " : " calls ") + outcomes + ", maxInFlight = " + maxInFlight
                    + ", the held calls finish in the order " + releaseOrder;
        }
    }

    /** What a call returns: {@code "r<i>"} or sometimes null. */
    private static Arbitrary<Object> result(int i) {
        return Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just("r" + i)), Tuple.of(1, Arbitraries.just(null)));
    }

    /** A failure of call {@code i}, shown as {@code Kind!}: kept as a {@link Failure} until the call throws it. */
    record Fails(int call, Failure failure) {
        @Override
        public String toString() {
            return "throws " + failure;
        }
    }

    @Provide
    Arbitrary<Plan> successfulPlans() {
        return plans(0);
    }

    @Provide
    Arbitrary<Plan> failingPlans() {
        return plans(3);
    }

    /** Plans of 1 to 12 calls; with {@code failureWeight > 0}, some calls fail, at least one. */
    private static Arbitrary<Plan> plans(int failureWeight) {
        return Arbitraries.integers().between(1, 12).flatMap(n -> {
            List<Arbitrary<Object>> each = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                Arbitrary<Object> fails = Combinators.combine(
                        Arbitraries.of(Failure.Kind.class), Arbitraries.of(true, false))
                        .as((kind, cause) -> new Fails(k, new Failure(kind, cause)));
                each.add(failureWeight == 0 ? result(i)
                        : Arbitraries.frequencyOf(Tuple.of(4, result(i)), Tuple.of(failureWeight, fails)));
            }
            Arbitrary<List<Object>> outcomes = Combinators.combine(each).as(l -> (List<Object>) new ArrayList<Object>(l));
            if (failureWeight > 0) {
                outcomes = outcomes.filter(o -> o.stream().anyMatch(Fails.class::isInstance));
            }
            return Combinators.combine(outcomes, limits(n), releaseOrders(n)).as(Plan::new);
        });
    }

    /** The outcomes a Conductor hands the calls: each failure made into its throwable, once. */
    private static List<Object> realize(List<Object> outcomes) {
        List<Object> real = new ArrayList<>();
        for (Object o : outcomes) {
            real.add(o instanceof Fails f ? f.failure().create("call " + f.call() + " failed") : o);
        }
        return real;
    }

    @Provide
    Arbitrary<Integer> badLimits() {
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.integers().between(Integer.MIN_VALUE, 0)),
                Tuple.of(2, Arbitraries.integers().between(-3, 0)),
                Tuple.of(1, Arbitraries.of(0, -1, Integer.MIN_VALUE)));
    }

    @TestOrder(1)
    @Property(seed = "2005001", tries = 10, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("maxInFlight < 1 (down to Integer.MIN_VALUE) throws IllegalArgumentException and runs no call; "
            + "maxInFlight = 1 is a limit like any")
    void maxInFlightBelowOneIsRejected(@ForAll("badLimits") int maxInFlight,
            @ForAll @IntRange(min = 0, max = 3) int calls) {
        Probe probe = new Probe();
        List<Callable<Integer>> list = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            list.add(probe.wrap(() -> 1));
        }
        // Without the check, a Semaphore of no permits lets no call in and callAll waits for ever: stopped after 1 s.
        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> assertThrows(IllegalArgumentException.class,
                        () -> Throttle.callAll(list, maxInFlight),
                        "callAll(" + calls + (calls == 1 ? " call, " : " calls, ") + maxInFlight + ") must throw IllegalArgumentException"),
                "callAll(" + calls + (calls == 1 ? " call, " : " calls, ") + maxInFlight + ") neither threw nor returned within 1 s");
        assertEquals(0, probe.entered(), "calls that ran although maxInFlight was " + maxInFlight);
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> assertEquals(Collections.nCopies(calls, 1),
                Throttle.callAll(list, 1), "callAll(" + calls + (calls == 1 ? " call" : " calls") + ", 1): one call at a time is allowed"));
    }

    @TestOrder(2)
    @Property(seed = "2005002", tries = 8, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:1")
    @Label("no calls: returns an empty list, whatever maxInFlight ≥ 1")
    void noCallsGiveAnEmptyList(@ForAll @IntRange(min = 1, max = Integer.MAX_VALUE) int maxInFlight)
            throws Exception {
        List<Integer> results = Throttle.callAll(List.<Callable<Integer>>of(), maxInFlight);
        assertNotNull(results, "callAll(no calls, " + maxInFlight + ") must return a list, not null");
        assertEquals(List.of(), results, "results of no calls, maxInFlight = " + maxInFlight);
    }

    @TestOrder(3)
    @Property(seed = "2005003", tries = 10, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("results come back in input order, whatever order the calls finish in (1 to 12 calls, some return null, "
            + "maxInFlight from 1 to above the number of calls)")
    void resultsKeepInputOrder(@ForAll("successfulPlans") Plan plan) throws Exception {
        Object outcome = new Conductor(plan.outcomes(), plan.maxInFlight()).run(plan.releaseOrder(), null);
        if (outcome instanceof Throwable t) {
            throw new AssertionError("callAll threw " + t + "; no call failed", t);
        }
        assertEquals(plan.outcomes(), outcome, "the results of " + plan);
    }

    @Order(4)
    @Test
    @Tag("points:1")
    @DisplayName("a call may return null: its result is null, in its place")
    void aCallMayReturnNull() throws Exception {
        List<Callable<String>> calls = List.of(() -> "a", () -> null, () -> "c");
        List<String> results = Throttle.callAll(calls, 2);
        assertEquals(Arrays.asList("a", null, "c"), results, "results of calls returning \"a\", null, \"c\"");
    }

    @TestOrder(5)
    @Property(seed = "2005005", tries = 10, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("each call runs once, on a new virtual thread of its own (1 to 40 calls, maxInFlight from 1 to above "
            + "the number of calls)")
    void eachCallOnItsOwnVirtualThread(@ForAll @IntRange(min = 1, max = 40) int calls,
            @ForAll @IntRange(min = 1, max = 43) int maxInFlight) throws Exception {
        Probe probe = new Probe();
        List<Callable<Integer>> list = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            int k = i;
            list.add(probe.wrap(() -> k));
        }
        String run = calls + (calls == 1 ? " call" : " calls") + ", maxInFlight = " + maxInFlight;
        List<Integer> results = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> Throttle.callAll(list, maxInFlight), "callAll (" + run + ") did not return within 5 s");
        assertAll(
                () -> assertEquals(IntStream.range(0, calls).boxed().toList(), results, "results of " + run),
                () -> assertEquals(calls, probe.entered(), "calls that ran (" + run + ")"),
                () -> assertEquals(calls, probe.virtualCount(), "calls that ran on a virtual thread (" + run + ")"),
                () -> assertEquals(calls, probe.threads(), "distinct threads that ran the calls (" + run + "; a pool "
                        + "of maxInFlight threads reuses its threads; the limit must come from elsewhere)"));
    }

    @TestOrder(6)
    @Property(seed = "2005006", tries = 8, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("never more than maxInFlight calls at once, and exactly maxInFlight while more wait, whichever call "
            + "finishes first (1 to 12 calls, maxInFlight from 1 to above the number of calls)")
    void keepsTheLimitExactly(@ForAll("successfulPlans") Plan plan) throws Exception {
        Object outcome = new Conductor(plan.outcomes(), plan.maxInFlight()).run(plan.releaseOrder(),
                Duration.ofMillis(1_200));
        assertEquals(plan.outcomes(), outcome, "the results of " + plan);
    }

    @Order(7)
    @Test
    @Tag("points:2")
    @Timeout(40)
    @DisplayName("a call that waits for a permit waits as long as it takes: it never runs without one (6 calls held "
            + "for as long as any waits with a time-out, up to 15 s; maxInFlight = 2)")
    void waitingCallsNeverRunWithoutAPermit() throws Exception {
        List<Object> outcomes = List.of(0, 1, 2, 3, 4, 5);
        Object outcome = new Conductor(outcomes, 2).run(List.of(0, 1, 2, 3, 4, 5), Duration.ofSeconds(15));
        assertEquals(outcomes, outcome, "the results");
    }

    @Order(8)
    @Test
    @Tag("points:2")
    @Timeout(10)
    @DisplayName("a failing call: ExecutionException with its own exception as the cause, thrown only after every other call finished")
    void failureIsReportedAfterAllCallsFinished() throws Exception {
        Probe probe = new Probe();
        IOException boom = new IOException("service unavailable");
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int k = i;
            calls.add(probe.wrap(() -> {
                if (k == 1) {
                    failed.countDown();
                    throw boom;
                }
                if (k > 1) {
                    gate.await(5, TimeUnit.SECONDS); // calls 2, 3 and 4 are still running when call 1 fails
                }
                return k;
            }));
        }
        Caller<Integer> caller = new Caller<>(calls, 5, probe);
        caller.awaitOrRethrow(failed, probe, Duration.ofSeconds(5));
        // Call 0 has returned, call 1 has failed and three calls wait at the gate: callAll must not end now. Code
        // that throws at the first failure ends within this moment; then the gate opens.
        boolean endedEarly = caller.thread.join(Duration.ofMillis(200));
        gate.countDown();
        caller.thread.join(Duration.ofSeconds(5));
        Object outcome = caller.outcome.get();
        assertAll(
                () -> assertFalse(endedEarly, "callAll ended while calls 2, 3 and 4 were still running (it had seen "
                        + caller.exitedWhenItEnded.get() + " of 5 calls end)"),
                () -> assertEquals(5, caller.exitedWhenItEnded.get(), "calls that had finished when callAll ended"),
                () -> {
                    ExecutionException thrown = assertInstanceOf(ExecutionException.class, outcome,
                            "callAll must throw ExecutionException when a call fails");
                    assertSame(boom, thrown.getCause(),
                            "the ExecutionException's cause: the failed call's own exception, not wrapped again");
                });
    }

    /** The throwable that the earliest failed call in list order threw, from the outcomes a Conductor used. */
    private static Throwable earliestFailure(List<Object> realized) {
        return realized.stream().filter(Throwable.class::isInstance).map(Throwable.class::cast).findFirst()
                .orElseThrow();
    }

    @TestOrder(9)
    @Property(seed = "2005009", tries = 10, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("calls fail (checked and unchecked exceptions, Errors, with and without a cause, anywhere in the list): "
            + "the cause is the earliest failed call's own throwable in list order, whichever failed first in time")
    void earliestFailureInListOrderWins(@ForAll("failingPlans") Plan plan) throws Exception {
        List<Object> realized = realize(plan.outcomes());
        Object outcome = new Conductor(realized, plan.maxInFlight()).run(plan.releaseOrder(), null);
        Throwable expected = earliestFailure(realized);
        ExecutionException thrown = assertInstanceOf(ExecutionException.class, outcome,
                "callAll must throw ExecutionException when calls fail (" + plan + ")");
        assertSame(expected, thrown.getCause(), "the ExecutionException's cause must be " + expected + ", the "
                + "earliest failed call's own throwable in list order, itself and not wrapped again (" + plan
                + "); it was " + thrown.getCause());
    }

    @Provide
    Arbitrary<Plan> failingPlansUnderALimit() {
        return failingPlans().filter(p -> p.maxInFlight() < p.outcomes().size());
    }

    @TestOrder(10)
    @Property(seed = "2005010", tries = 10, afterFailure = AfterFailureMode.PREVIOUS_SEED)
    @net.jqwik.api.Tag("points:2")
    @Label("a failing call gives its permit back, whatever it throws (checked and unchecked exceptions, Errors): "
            + "exactly maxInFlight calls keep running while more wait, and every call runs")
    void failingCallsReleaseTheirPermits(@ForAll("failingPlansUnderALimit") Plan plan) throws Exception {
        List<Object> realized = realize(plan.outcomes());
        Conductor conductor = new Conductor(realized, plan.maxInFlight());
        Object outcome = conductor.run(plan.releaseOrder(), null);
        assertEquals(plan.outcomes().size(), conductor.probe.exited(), "calls that ran (" + plan + ")");
        ExecutionException thrown = assertInstanceOf(ExecutionException.class, outcome,
                "callAll must throw ExecutionException when calls fail (" + plan + ")");
        assertSame(earliestFailure(realized), thrown.getCause(),
                "the cause must be the earliest failed call's own throwable in list order (" + plan + ")");
    }
}
