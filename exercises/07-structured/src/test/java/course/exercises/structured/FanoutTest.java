package course.exercises.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.management.HotSpotDiagnosticMXBean;
import course.base.Failure;
import course.base.TestOrder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The course's tests for exercise 07. Each test's {@code points:N} tag is what it is worth. Most are jqwik
 * properties: each try runs {@code serve} on generated calls (any number of them, results with {@code null}s,
 * failures of every kind, deadlines to the nanosecond, the caller interrupted at each stage), and a failing
 * property reports the smallest input it found. The calls synchronise with latches and with the caller thread's
 * state, never with a sleep: a call that is cancelled ends only once {@code serve} waits for it, so a
 * {@code serve} that does not wait shows every time. A correct {@code serve} passes however slow the machine is;
 * {@link #GUARD} only bounds how long a test waits for what a correct {@code serve} does at once, so that a wrong
 * one fails fast instead of hanging.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("Fanout.serve")
class FanoutTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);
    /** How long a test waits for what a correct serve does at once (a call to start, serve to return). */
    private static final Duration GUARD = Duration.ofSeconds(2);
    /** How long a call that runs until it is cancelled waits: longer than any guard, so a wait for it shows. */
    private static final Duration UNTIL_CANCELLED = Duration.ofSeconds(6);

    // ----------------------------------------------------------------------------------------------------------
    // One serve and what its calls did
    // ----------------------------------------------------------------------------------------------------------

    /** What a call does once it is cancelled (interrupted), after it has taken its time to end. */
    enum AfterCancel {
        THROWS_INTERRUPTED_EXCEPTION("throws InterruptedException"),
        THROWS_AN_EXCEPTION_OF_ITS_OWN("throws an exception of its own"),
        RETURNS_A_RESULT("returns a result all the same");

        private final String shown;

        AfterCancel(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    /**
     * One call of serve on a thread of its own (the caller), and what its calls did, each known by its index.
     * A call that is cancelled takes as long to end as {@code serve} lets it: it ends only once the caller is
     * waiting (parked, its interrupts dealt with) or serve has returned; so a serve that returns without waiting
     * for its cancelled calls is caught every time.
     */
    private static final class Run {
        final int calls;
        final CountDownLatch allStarted;
        final Set<Integer> started = ConcurrentHashMap.newKeySet();
        final Set<Integer> interrupted = ConcurrentHashMap.newKeySet();
        final Set<Integer> ended = ConcurrentHashMap.newKeySet();
        final Map<Integer, Thread> threads = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        volatile Thread caller;
        volatile boolean over;                    // serve has returned or thrown
        Set<Integer> runningWhenServeEnded = Set.of();
        Object returned;
        Throwable thrown;

        Run(int calls) {
            this.calls = calls;
            this.allStarted = new CountDownLatch(calls);
        }

        void start(int i) {
            threads.put(i, Thread.currentThread());
            started.add(i);
            allStarted.countDown();
        }

        /** Waits until every call has started; records a problem if they do not within GUARD. */
        boolean awaitAllStarted(int i) {
            if (!problems.isEmpty()) {
                return false;                    // a serve that runs the calls one by one: end fast
            }
            try {
                if (allStarted.await(GUARD.toNanos(), TimeUnit.NANOSECONDS)) {
                    return true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            problems.add("call " + i + " waited " + GUARD.toMillis() + " ms for the other calls to start, but only "
                    + started.size() + " of the " + calls + " had started: the calls must all run at the same time");
            return false;
        }

        /** Whether the caller is parked (waiting) with no interrupt left to deal with. */
        boolean callerWaits() {
            Thread c = caller;
            Thread.State s = c.getState();
            return (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) && !c.isInterrupted();
        }

        /** Takes as long as serve lets it: until the caller waits for it or serve is over (GUARD at most). */
        void lingerUntilServeWaits() {
            long until = System.nanoTime() + GUARD.toNanos();
            while (!over && !callerWaits() && System.nanoTime() - until < 0) {
                LockSupport.parkNanos(1_000_000);
                Thread.interrupted();            // a cancelled call finishes its cleanup, whatever interrupts come
            }
        }

        /** A call that returns {@code value} at once. */
        <T> Callable<T> returning(int i, T value) {
            return () -> {
                start(i);
                try {
                    return value;
                } finally {
                    ended.add(i);
                }
            };
        }

        /**
         * A call that runs until it is cancelled (interrupted), takes its time to end, then does what
         * {@code after} says ({@code failure} is what it throws if it throws one of its own).
         */
        Callable<Object> untilCancelled(int i, AfterCancel after, Failure failure) {
            return () -> {
                start(i);
                try {
                    new CountDownLatch(1).await(UNTIL_CANCELLED.toNanos(), TimeUnit.NANOSECONDS);
                    return "call " + i + " was never cancelled";
                } catch (InterruptedException e) {
                    interrupted.add(i);
                    lingerUntilServeWaits();
                    return switch (after) {
                        case THROWS_INTERRUPTED_EXCEPTION -> throw e;
                        case THROWS_AN_EXCEPTION_OF_ITS_OWN -> failure.throwIt("call " + i + ", cancelled");
                        case RETURNS_A_RESULT -> "call " + i + ", cancelled";
                    };
                } finally {
                    ended.add(i);
                }
            };
        }

        /** The calls started and not ended. */
        Set<Integer> running() {
            Set<Integer> r = new TreeSet<>(started);
            r.removeAll(ended);
            return r;
        }

        /**
         * Runs {@code serve} on a new caller thread; fails if it has neither returned nor thrown {@code guard}
         * after it was called (then interrupts it, to end it), or if a call found a problem.
         */
        void serve(Callable<?> serve, Duration guard, String what) throws InterruptedException {
            Thread t = Thread.ofPlatform().daemon().name("serve's caller").unstarted(() -> {
                try {
                    returned = serve.call();
                } catch (Throwable e) {
                    thrown = e;
                } finally {
                    runningWhenServeEnded = running();
                    over = true;
                }
            });
            caller = t;
            t.start();
            if (!t.join(guard)) {
                t.interrupt();
                fail(what + ": serve had neither returned nor thrown " + guard.toMillis()
                        + " ms after it was called" + (problems.isEmpty() ? "" : ": " + problems.peek()));
            }
            if (thrown instanceof UnsupportedOperationException notWritten) {
                throw notWritten; // serve is not written yet: say so, rather than what it failed to do
            }
            if (!problems.isEmpty()) {
                fail(problems.peek());
            }
        }

        /** What serve threw; fails if it returned. */
        Throwable thrown(String what) {
            if (thrown == null) {
                fail(what + ": serve returned " + returned + " instead of throwing");
            }
            return thrown;
        }

        /** What serve returned; fails if it threw. */
        Object returned(String what) {
            if (thrown != null) {
                throw new AssertionError(what + ": serve threw " + thrown, thrown);
            }
            return returned;
        }

        /** Checks that every call that started and runs until cancelled was interrupted and had ended in time. */
        void assertCancelledAndEnded(Set<Integer> untilCancelled, String what) {
            Set<Integer> notInterrupted = new TreeSet<>(untilCancelled);
            notInterrupted.retainAll(started);
            notInterrupted.removeAll(interrupted);
            assertTrue(notInterrupted.isEmpty(), what + ": calls " + notInterrupted
                    + " were still running and were not cancelled (interrupted)");
            assertTrue(runningWhenServeEnded.isEmpty(), what + ": calls " + runningWhenServeEnded
                    + " were still running when serve returned or threw (cancelled, they end only once serve waits"
                    + " for them)");
        }
    }

    private static Failure failure(Failure.Kind kind, boolean withCause) {
        return new Failure(kind, withCause);
    }

    private static Arbitrary<Failure> failures() {
        return Combinators.combine(Arbitraries.of(Failure.Kind.class), Arbitraries.of(false, true))
                .as(Failure::new);
    }

    private static String describe(Throwable t) {
        return t == null ? "nothing" : t + (t.getCause() == null ? "" : " (its cause: " + t.getCause() + ")");
    }

    // ----------------------------------------------------------------------------------------------------------
    // 1. Null arguments and no calls
    // ----------------------------------------------------------------------------------------------------------

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("no calls: an empty list; a null argument: NullPointerException, even with no calls")
    void emptyAndNull() throws Exception {
        List<String> none = Fanout.serve("r", List.<Callable<String>>of(), GENEROUS);
        assertNotNull(none, "serve must return a list, not null");
        assertEquals(List.of(), none, "results of no calls");
        List<Callable<String>> one = List.of(() -> "x");
        List<Callable<String>> empty = List.of();
        List<Callable<String>> withNull = Arrays.asList(() -> "x", null);
        assertThrows(NullPointerException.class, () -> Fanout.serve(null, one, GENEROUS), "a null requestId");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", null, GENEROUS), "a null list of calls");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", one, null), "a null deadline");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", withNull, GENEROUS),
                "a null call in the list");
        assertThrows(NullPointerException.class, () -> Fanout.serve(null, empty, GENEROUS),
                "a null requestId, with no calls");
        assertThrows(NullPointerException.class, () -> Fanout.serve("r", empty, null),
                "a null deadline, with no calls");
    }

    /** Arguments of serve with at least one null: the id, the list, the deadline, or calls at some places. */
    record NullArguments(boolean nullRequestId, boolean nullList, boolean nullDeadline, int calls,
                         Set<Integer> nullCalls) {
        @Override
        public String toString() {
            String list = nullList ? "null" : IntStream.range(0, calls)
                    .mapToObj(i -> nullCalls.contains(i) ? "null" : "call " + i)
                    .collect(Collectors.joining(", ", "[", "]"));
            return "serve(" + (nullRequestId ? "null" : "\"r\"") + ", " + list + ", "
                    + (nullDeadline ? "null" : "30 s") + ")";
        }
    }

    @Provide
    Arbitrary<NullArguments> nullArguments() {
        return Combinators.combine(Arbitraries.of(false, true), Arbitraries.of(false, true),
                        Arbitraries.of(false, true), Arbitraries.integers().between(0, 12))
                .flatAs((id, list, deadline, n) -> (n == 0 ? Arbitraries.just(Set.<Integer>of())
                        : Arbitraries.integers().between(0, n - 1).set().ofMaxSize(n))
                        .map(nulls -> new NullArguments(id, list, deadline, n, Set.copyOf(nulls))))
                .filter(a -> a.nullRequestId() || a.nullList() || a.nullDeadline() || !a.nullCalls().isEmpty());
    }

    @TestOrder(2)
    @Property(seed = "2007002", tries = 30)
    @net.jqwik.api.Tag("points:1")
    @Label("a null anywhere (a call at any place in the list too): NullPointerException before any call runs")
    void nullAnywhere(@ForAll("nullArguments") NullArguments serve) throws Exception {
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < serve.calls(); i++) {
            int k = i;
            calls.add(serve.nullCalls().contains(i) ? null : () -> {
                ran.add(k);
                return k;
            });
        }
        Throwable thrown;
        try {
            Object result = Fanout.serve(serve.nullRequestId() ? null : "r", serve.nullList() ? null : calls,
                    serve.nullDeadline() ? null : GENEROUS);
            thrown = fail(serve + " must throw NullPointerException; it returned " + result);
        } catch (Throwable t) {
            thrown = t;
        }
        if (thrown instanceof UnsupportedOperationException notWritten) {
            throw notWritten;
        }
        assertInstanceOf(NullPointerException.class, thrown, serve + " must throw NullPointerException, not "
                + describe(thrown));
        assertTrue(ran.isEmpty(), serve + " threw NullPointerException, but only after calls " + new TreeSet<>(ran)
                + " had run: check every argument before any call runs");
    }

    // ----------------------------------------------------------------------------------------------------------
    // 2. At the same time, each in its own subtask of one scope, on a virtual thread of its own
    // ----------------------------------------------------------------------------------------------------------

    @TestOrder(3)
    @Property(seed = "2007003", tries = 10)
    @net.jqwik.api.Tag("points:2")
    @Label("any number of calls run at the same time, each on a virtual thread of its own")
    void callsRunAtTheSameTime(@ForAll @IntRange(min = 1, max = 300) int calls) throws Exception {
        Run run = new Run(calls);
        List<Callable<Integer>> cs = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            int k = i;
            cs.add(() -> {
                run.start(k);
                run.awaitAllStarted(k);
                run.ended.add(k);
                return k;
            });
        }
        run.serve(() -> Fanout.serve("r", cs, GENEROUS), GUARD.multipliedBy(2), calls + " calls that each wait for "
                + "all the others to start");
        assertEquals(IntStream.range(0, calls).boxed().toList(), run.returned(calls + " calls"),
                "results of " + calls + " calls, call i returning i");
        Set<Thread> threads = Set.copyOf(run.threads.values());
        assertEquals(calls, threads.size(), calls + " calls ran on " + threads.size() + " threads: each call must "
                + "run on a thread of its own");
        assertFalse(threads.contains(run.caller), "a call ran on serve's caller thread: each call must run on a "
                + "thread of its own, a subtask's");
        for (Thread t : threads) {
            assertTrue(t.isVirtual(), "a call ran on " + t + ", a platform thread: each call must run on a virtual "
                    + "thread (a subtask's)");
        }
    }

    @TestOrder(4)
    @Property(seed = "2007004", tries = 3)
    @net.jqwik.api.Tag("points:2")
    @Label("each call is a subtask of one StructuredTaskScope that serve opens")
    void subtasksOfAScope(@ForAll @IntRange(min = 1, max = 5) int calls) throws Exception {
        Run run = new Run(calls);
        AtomicReference<String> dump = new AtomicReference<>();
        CountDownLatch dumped = new CountDownLatch(1);
        List<Callable<Integer>> cs = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            int k = i;
            cs.add(() -> {
                run.start(k);
                try {
                    if (run.awaitAllStarted(k) && k == 0) {
                        dump.set(threadDump());  // while every call is running
                    }
                } finally {
                    if (k == 0) {
                        dumped.countDown();
                    }
                }
                dumped.await(GUARD.toMillis(), TimeUnit.MILLISECONDS);
                run.ended.add(k);
                return k;
            });
        }
        run.serve(() -> Fanout.serve("r", cs, GENEROUS), GUARD.multipliedBy(2), calls + " calls");
        run.returned(calls + " calls");
        assertNotNull(dump.get(), "no thread dump was taken while the calls ran");
        Container first = null;
        for (int i = 0; i < calls; i++) {
            Thread t = run.threads.get(i);
            Container c = containerOf(dump.get(), t.threadId());
            assertTrue(c.owner() != null, "call " + i + " ran in " + c.name() + ", which no thread owns (an "
                    + "executor's threads or none): it must run in a subtask of a StructuredTaskScope");
            if (first == null) {
                first = c;
            }
            assertEquals(first.name(), c.name(), "calls 0 and " + i + " ran in different containers: all the calls "
                    + "must be subtasks of one StructuredTaskScope");
        }
    }

    // ----------------------------------------------------------------------------------------------------------
    // 3. REQUEST_ID
    // ----------------------------------------------------------------------------------------------------------

    /** A request's id, what the caller had bound (null: nothing), and whether call 0 serves a request of its own. */
    record Binding(String requestId, String callersId, int calls, boolean nested) {
        @Override
        public String toString() {
            return "serve(\"" + requestId + "\", " + calls + " calls) where REQUEST_ID is "
                    + (callersId == null ? "unbound" : "\"" + callersId + "\"")
                    + (nested ? "; call 0 serves a request \"" + inner(requestId) + "\" of its own" : "");
        }
    }

    private static String inner(String requestId) {
        return requestId + "+inner";
    }

    @Provide
    Arbitrary<Binding> bindings() {
        Arbitrary<String> ids = Arbitraries.strings().withChars("ab7-/ ").ofMaxLength(5);
        return Combinators.combine(ids, ids, Arbitraries.integers().between(0, 2), Arbitraries.integers()
                        .between(1, 6), Arbitraries.of(false, true))
                .as((id, other, callers, n, nested) -> new Binding(id,
                        callers == 0 ? null : callers == 1 ? id : other, n, nested));
    }

    private static String readRequestId() {
        return Fanout.REQUEST_ID.isBound() ? "\"" + Fanout.REQUEST_ID.get() + "\"" : "unbound";
    }

    @TestOrder(5)
    @Property(seed = "2007005", tries = 25)
    @net.jqwik.api.Tag("points:2")
    @Label("every call reads REQUEST_ID bound to requestId; the caller's REQUEST_ID is as it was after serve")
    void requestIdVisibleInEveryCall(@ForAll("bindings") Binding serve) throws Exception {
        Run run = new Run(serve.calls());
        List<Callable<String>> calls = new ArrayList<>();
        for (int i = 0; i < serve.calls(); i++) {
            int k = i;
            calls.add(() -> {
                run.start(k);
                String read = readRequestId();
                if (k == 0 && serve.nested()) {
                    List<String> inner = Fanout.serve(inner(serve.requestId()),
                            List.<Callable<String>>of(FanoutTest::readRequestId, FanoutTest::readRequestId), GENEROUS);
                    read = inner + " then " + readRequestId();
                }
                run.ended.add(k);
                return read;
            });
        }
        AtomicReference<String> after = new AtomicReference<>();
        Callable<List<String>> body = () -> {
            List<String> r = Fanout.serve(serve.requestId(), calls, GENEROUS);
            after.set(readRequestId());
            return r;
        };
        run.serve(serve.callersId() == null ? body : () -> ScopedValue.where(Fanout.REQUEST_ID, serve.callersId())
                .call(body::call), GUARD.multipliedBy(2), serve.toString());
        String id = "\"" + serve.requestId() + "\"";
        List<String> expected = new ArrayList<>(Collections.nCopies(serve.calls(), id));
        if (serve.nested()) {
            String in = "\"" + inner(serve.requestId()) + "\"";
            expected.set(0, List.of(in, in) + " then " + id);
        }
        assertEquals(expected, run.returned(serve.toString()), "REQUEST_ID as each call read it");
        assertEquals(serve.callersId() == null ? "unbound" : "\"" + serve.callersId() + "\"", after.get(),
                "REQUEST_ID in the caller after serve must be as it was before");
    }

    @Order(6)
    @Test
    @Tag("points:1")
    @DisplayName("a caller that has its own REQUEST_ID: the calls read serve's, the caller keeps its own")
    void requestIdRebindsInsideABinding() throws Exception {
        List<Callable<String>> calls = List.of(() -> Fanout.REQUEST_ID.get(), () -> Fanout.REQUEST_ID.get());
        AtomicReference<List<String>> read = new AtomicReference<>();
        String after = ScopedValue.where(Fanout.REQUEST_ID, "outer").call(() -> {
            read.set(Fanout.serve("inner", calls, GENEROUS));
            return Fanout.REQUEST_ID.get();
        });
        assertEquals(List.of("inner", "inner"), read.get(),
                "REQUEST_ID as each call read it, serve(\"inner\", …) called where REQUEST_ID was \"outer\"");
        assertEquals("outer", after, "REQUEST_ID in the caller after serve (it was \"outer\" before)");
    }

    // ----------------------------------------------------------------------------------------------------------
    // 4. Results in the order of calls
    // ----------------------------------------------------------------------------------------------------------

    /** What each call returns (null too), and the order in which the calls complete. */
    record Completion(List<String> results, List<Integer> order) {
        @Override
        public String toString() {
            return "calls returning " + results.stream().map(r -> r == null ? "null" : "\"" + r + "\"").toList()
                    + ", completing in the order " + order;
        }
    }

    @Provide
    Arbitrary<Completion> completions() {
        return Arbitraries.strings().withChars("abc").ofMaxLength(2).injectNull(0.25).list().ofMaxSize(20)
                .flatMap(rs -> Arbitraries.shuffle(IntStream.range(0, rs.size()).boxed().toList())
                        .map(order -> new Completion(rs, order)));
    }

    @TestOrder(7)
    @Property(seed = "2007007", tries = 25)
    @net.jqwik.api.Tag("points:2")
    @Label("result i is what call i returned (null too), whatever order the calls complete in")
    void resultsInTheOrderOfCalls(@ForAll("completions") Completion calls) throws Exception {
        int n = calls.results().size();
        Run run = new Run(n);
        List<Callable<String>> cs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            int place = calls.order().indexOf(k);
            cs.add(() -> {
                run.start(k);
                if (place > 0) {                          // completes once the call before it in time has ended
                    int before = calls.order().get(place - 1);
                    Thread t = awaitThread(run, before);
                    if (t == null || !t.join(GUARD)) {
                        run.problems.add("call " + k + " waited " + GUARD.toMillis() + " ms for call " + before
                                + " to complete: the calls must all run at the same time");
                    }
                }
                run.ended.add(k);
                return calls.results().get(k);
            });
        }
        run.serve(() -> Fanout.serve("r", cs, GENEROUS), GUARD.multipliedBy(2), calls.toString());
        assertEquals(calls.results(), run.returned(calls.toString()),
                "results of " + calls + ": result i must be what call i returned");
    }

    /** The thread of call {@code i} once it has started (GUARD at most), or null. */
    private static Thread awaitThread(Run run, int i) throws InterruptedException {
        long until = System.nanoTime() + GUARD.toNanos();
        Thread t;
        while ((t = run.threads.get(i)) == null && System.nanoTime() - until < 0) {
            Thread.sleep(1);
        }
        return t;
    }

    // ----------------------------------------------------------------------------------------------------------
    // 5, 6, 9. A failure: its own exception, the siblings cancelled and ended
    // ----------------------------------------------------------------------------------------------------------

    /** A call of a try: returns at once, runs until it is cancelled, or fails. */
    enum Role {
        RETURNS("returns"), UNTIL_CANCELLED("runs until cancelled"), FAILS("fails");

        private final String shown;

        Role(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    /** Calls that return or run until cancelled, and one that fails once all of them have started. */
    record OneFailure(List<Role> roles, Failure failure, AfterCancel afterCancel) {
        int failing() {
            return roles.indexOf(Role.FAILS);
        }

        @Override
        public String toString() {
            List<String> calls = new ArrayList<>();
            for (int i = 0; i < roles.size(); i++) {
                calls.add("call " + i + (roles.get(i) == Role.FAILS ? " throws " + failure : " " + roles.get(i)));
            }
            return String.join(", ", calls) + "; a cancelled call " + afterCancel;
        }
    }

    @Provide
    Arbitrary<OneFailure> oneFailure() {
        Arbitrary<List<Role>> roles = Arbitraries.of(Role.RETURNS, Role.UNTIL_CANCELLED, Role.UNTIL_CANCELLED)
                .list().ofMaxSize(9)
                .flatMap(others -> Arbitraries.integers().between(0, others.size()).map(at -> {
                    List<Role> all = new ArrayList<>(others);
                    all.add(at, Role.FAILS);
                    return List.copyOf(all);
                }));
        return Combinators.combine(roles, failures(), Arbitraries.of(AfterCancel.class)).as(OneFailure::new);
    }

    @TestOrder(8)
    @Property(seed = "2007008", tries = 25)
    @net.jqwik.api.Tag("points:3")
    @Label("a call fails (any throwable): its own throwable is the cause; the others cancelled and ended")
    void failureCancelsSiblings(@ForAll("oneFailure") OneFailure calls) throws Exception {
        int n = calls.roles().size();
        Run run = new Run(n);
        AtomicReference<Throwable> thrownByTheCall = new AtomicReference<>();
        Set<Integer> untilCancelled = new TreeSet<>();
        List<Callable<Object>> cs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            switch (calls.roles().get(i)) {
                case RETURNS -> cs.add(run.returning(k, "call " + k));
                case UNTIL_CANCELLED -> {
                    untilCancelled.add(k);
                    cs.add(run.untilCancelled(k, calls.afterCancel(), calls.failure()));
                }
                case FAILS -> cs.add(() -> {
                    run.start(k);
                    try {
                        run.awaitAllStarted(k);           // the others are running
                        Throwable t = calls.failure().create("call " + k + " failed");
                        thrownByTheCall.set(t);
                        throw sneaky(t);
                    } finally {
                        run.ended.add(k);
                    }
                });
            }
        }
        run.serve(() -> Fanout.serve("r", cs, GENEROUS), GUARD, calls.toString());
        Throwable thrown = run.thrown(calls.toString());
        assertInstanceOf(ExecutionException.class, thrown, calls + ": a failed call must end serve with an "
                + "ExecutionException, not " + describe(thrown));
        assertSame(thrownByTheCall.get(), thrown.getCause(), calls + ": the cause must be the failed call's own "
                + calls.failure() + " (" + thrownByTheCall.get() + "), not " + describe(thrown.getCause()));
        run.assertCancelledAndEnded(untilCancelled, calls.toString());
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Calls that return, and calls that fail, one after the other in time, in the order {@code failing}. */
    record Failures(int calls, List<Integer> failing, List<Failure> failures) {
        @Override
        public String toString() {
            List<String> first = new ArrayList<>();
            for (int r = 0; r < failing.size(); r++) {
                first.add("call " + failing.get(r) + " throws " + failures.get(r));
            }
            return calls + " calls: " + String.join(", then ", first)
                    + (calls > failing.size() ? "; the others return" : "");
        }
    }

    @Provide
    Arbitrary<Failures> failuresInTime() {
        return Arbitraries.integers().between(1, 8).flatMap(n -> Arbitraries.integers().between(0, n - 1).set()
                .ofMinSize(1).flatMap(failing -> Arbitraries.shuffle(List.copyOf(failing))
                        .flatMap(order -> failures().list().ofSize(order.size())
                                .map(fs -> new Failures(n, order, fs)))));
    }

    @TestOrder(9)
    @Property(seed = "2007009", tries = 25)
    @net.jqwik.api.Tag("points:2")
    @Label("several calls fail: the cause is the throwable of the one that failed first in time")
    void firstFailureInTime(@ForAll("failuresInTime") Failures calls) throws Exception {
        Run run = new Run(calls.calls());
        AtomicReference<Throwable> first = new AtomicReference<>();
        List<Callable<Object>> cs = new ArrayList<>();
        for (int i = 0; i < calls.calls(); i++) {
            int k = i;
            int rank = calls.failing().indexOf(k);
            if (rank < 0) {
                cs.add(run.returning(k, "call " + k));
                continue;
            }
            cs.add(() -> {
                run.start(k);
                try {
                    if (rank > 0) {              // fails once the call that fails before it has ended, or cancelled
                        try {
                            Thread t = awaitThread(run, calls.failing().get(rank - 1));
                            if (t != null) {
                                t.join(GUARD);
                            }
                        } catch (InterruptedException cancelled) {
                            // cancelled because a call failed: fail now all the same
                        }
                    }
                    Throwable t = calls.failures().get(rank).create("call " + k + " failed, "
                            + (rank + 1) + (rank == 0 ? "st" : rank == 1 ? "nd" : rank == 2 ? "rd" : "th") + " in time");
                    if (rank == 0) {
                        first.set(t);
                    }
                    throw sneaky(t);
                } finally {
                    run.ended.add(k);
                }
            });
        }
        run.serve(() -> Fanout.serve("r", cs, GENEROUS), GUARD.multipliedBy(2), calls.toString());
        Throwable thrown = run.thrown(calls.toString());
        assertInstanceOf(ExecutionException.class, thrown, calls + ": failed calls must end serve with an "
                + "ExecutionException, not " + describe(thrown));
        assertSame(first.get(), thrown.getCause(), calls + ": the cause must be the throwable of the call that "
                + "failed first in time (" + first.get() + "), not " + describe(thrown.getCause()));
    }

    // ----------------------------------------------------------------------------------------------------------
    // 7, 9. The deadline
    // ----------------------------------------------------------------------------------------------------------

    /** A deadline, with calls that return at once or run until cancelled (one at least). */
    record Timeout(Duration deadline, List<Role> roles) {
        @Override
        public String toString() {
            return "deadline " + deadline + ", calls that " + roles;
        }
    }

    @Provide
    Arbitrary<Timeout> timeouts() {
        Arbitrary<Duration> deadlines = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Duration.ZERO)),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, 2_000_000_000L).map(ns -> Duration.ofNanos(-ns))),
                net.jqwik.api.Tuple.of(1, Combinators.combine(Arbitraries.longs().between(Long.MIN_VALUE, -1),
                        Arbitraries.longs().between(0, 999_999_999)).as(Duration::ofSeconds)),
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1, 999_999).map(Duration::ofNanos)),
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1_000_000, 25_000_000).map(Duration::ofNanos)));
        Arbitrary<List<Role>> roles = Arbitraries.of(Role.RETURNS, Role.UNTIL_CANCELLED).list().ofMinSize(1)
                .ofMaxSize(8).filter(rs -> rs.contains(Role.UNTIL_CANCELLED));
        return Combinators.combine(deadlines, roles).as(Timeout::new);
    }

    @TestOrder(10)
    @Property(seed = "2007010", tries = 25)
    @net.jqwik.api.Tag("points:2")
    @Label("the deadline passes (to the nanosecond, zero or negative too): TimeoutException, calls cancelled")
    void deadline(@ForAll("timeouts") Timeout calls) throws Exception {
        int n = calls.roles().size();
        Run run = new Run(n);
        Set<Integer> untilCancelled = new TreeSet<>();
        List<Callable<Object>> cs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (calls.roles().get(i) == Role.RETURNS) {
                cs.add(run.returning(i, "call " + i));
            } else {
                untilCancelled.add(i);
                cs.add(run.untilCancelled(i, AfterCancel.THROWS_INTERRUPTED_EXCEPTION, failure(Failure.Kind.ERROR, false)));
            }
        }
        Duration wait = calls.deadline().isNegative() ? GUARD : calls.deadline().plus(GUARD);
        run.serve(() -> Fanout.serve("r", cs, calls.deadline()), wait, calls.toString());
        Throwable thrown = run.thrown(calls.toString());
        assertInstanceOf(TimeoutException.class, thrown, calls + ": a passed deadline must throw "
                + "java.util.concurrent.TimeoutException, not " + describe(thrown));
        run.assertCancelledAndEnded(untilCancelled, calls.toString());
    }

    /** A deadline that does not pass: the calls each take {@code pause}, a few milliseconds. */
    record InTime(Duration deadline, int calls, Duration pause) {
        @Override
        public String toString() {
            return "deadline " + deadline + ", " + calls + " calls of " + pause.toNanos() + " ns each";
        }
    }

    @Provide
    Arbitrary<InTime> inTime() {
        Arbitrary<Long> smallNanos = Arbitraries.longs().between(0, 999);
        Arbitrary<Long> anyNanos = Arbitraries.longs().between(0, 999_999_999);
        Arbitrary<Duration> deadlines = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(800_000_000, 999_999_999).map(Duration::ofNanos)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(Arbitraries.longs().between(1, 3600),
                        Arbitraries.oneOf(smallNanos, anyNanos)).as(Duration::ofSeconds)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(Arbitraries.longs().between(1L << 34, Long.MAX_VALUE),
                        anyNanos).as(Duration::ofSeconds)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))));
        return Combinators.combine(deadlines, Arbitraries.integers().between(1, 6),
                Arbitraries.longs().between(1_000_000, 3_000_000).map(Duration::ofNanos)).as(InTime::new);
    }

    @TestOrder(11)
    @Property(seed = "2007011", tries = 20)
    @net.jqwik.api.Tag("points:1")
    @Label("a deadline that does not pass (0.8 s up to Duration's largest, to the nanosecond): the results")
    void deadlineNotPassed(@ForAll("inTime") InTime calls) throws Exception {
        Run run = new Run(calls.calls());
        List<Callable<Integer>> cs = new ArrayList<>();
        for (int i = 0; i < calls.calls(); i++) {
            int k = i;
            cs.add(() -> {
                run.start(k);
                run.awaitAllStarted(k);
                Thread.sleep(calls.pause());
                run.ended.add(k);
                return k;
            });
        }
        run.serve(() -> Fanout.serve("r", cs, calls.deadline()), GUARD.multipliedBy(2), calls.toString());
        assertEquals(IntStream.range(0, calls.calls()).boxed().toList(), run.returned(calls.toString()),
                calls + ": the calls complete long before the deadline");
    }

    @Order(12)
    @Test
    @Tag("points:1")
    @DisplayName("the deadline is for all the calls together, not for each")
    void deadlineIsForAllTheCalls() throws Exception {
        // Call k starts its work once call k-1 has completed, then sleeps half the deadline: each call completes
        // well within a deadline of the one before, but all of them take five deadlines.
        Duration deadline = Duration.ofMillis(100);
        int n = 10;
        Duration each = deadline.dividedBy(2);
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(new CountDownLatch(1));
        }
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> {
                if (k > 0) {
                    done.get(k - 1).await();
                }
                Thread.sleep(each);
                done.get(k).countDown();
                return k;
            });
        }
        Duration all = each.multipliedBy(n);
        Run run = new Run(n);
        String what = n + " calls, one after the other, of " + each.toMillis() + " ms each, under a deadline of "
                + deadline.toMillis() + " ms for all";
        run.serve(() -> Fanout.serve("r", calls, deadline), all.plus(GUARD), what);
        Throwable thrown = run.thrown(what);
        assertInstanceOf(TimeoutException.class, thrown, "calls that take " + all.toMillis() + " ms in all under a "
                + "deadline of " + deadline.toMillis() + " ms must throw java.util.concurrent.TimeoutException, not "
                + describe(thrown));
    }

    // ----------------------------------------------------------------------------------------------------------
    // 8, 9. The caller interrupted
    // ----------------------------------------------------------------------------------------------------------

    /** When the caller is interrupted. */
    enum Stage {
        BEFORE_SERVE("before it calls serve"),
        BY_A_CALL_AS_IT_STARTS("by call 0 as soon as it starts"),
        WHILE_SERVE_WAITS("while serve waits, every call running");

        private final String shown;

        Stage(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    /** Calls that return or run until cancelled (one at least), the caller interrupted at {@code stage}. */
    record Interrupt(List<Role> roles, Stage stage, AfterCancel afterCancel) {
        @Override
        public String toString() {
            return "calls that " + roles + ", the caller interrupted " + stage + "; a cancelled call "
                    + afterCancel;
        }
    }

    @Provide
    Arbitrary<Interrupt> interrupts() {
        Arbitrary<List<Role>> roles = Arbitraries.of(Role.RETURNS, Role.UNTIL_CANCELLED).list().ofMinSize(1)
                .ofMaxSize(8).filter(rs -> rs.contains(Role.UNTIL_CANCELLED));
        return Combinators.combine(roles, Arbitraries.of(Stage.class), Arbitraries.of(AfterCancel.class))
                .as(Interrupt::new);
    }

    @TestOrder(13)
    @Property(seed = "2007013", tries = 25)
    @net.jqwik.api.Tag("points:2")
    @Label("the caller is interrupted (before serve, as the calls start, while it waits): InterruptedException")
    void callerInterrupted(@ForAll("interrupts") Interrupt calls) throws Exception {
        int n = calls.roles().size();
        Run run = new Run(n);
        Set<Integer> untilCancelled = new TreeSet<>();
        List<Callable<Object>> cs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            Callable<Object> call;
            if (calls.roles().get(i) == Role.RETURNS) {
                call = run.returning(i, "call " + i);
            } else {
                untilCancelled.add(i);
                call = run.untilCancelled(i, calls.afterCancel(), failure(Failure.Kind.ILLEGAL_STATE, false));
            }
            if (k == 0 && calls.stage() == Stage.BY_A_CALL_AS_IT_STARTS) {
                Callable<Object> inner = call;
                call = () -> {
                    run.caller.interrupt();
                    return inner.call();
                };
            }
            cs.add(call);
        }
        Callable<Object> serve = () -> {
            if (calls.stage() == Stage.BEFORE_SERVE) {
                Thread.currentThread().interrupt();
            }
            return Fanout.serve("r", cs, GENEROUS);
        };
        if (calls.stage() != Stage.WHILE_SERVE_WAITS) {
            run.serve(serve, GUARD, calls.toString());
        } else {
            Thread interrupter = Thread.ofPlatform().daemon().start(() -> {
                long until = System.nanoTime() + GUARD.toNanos();
                try {
                    while (run.caller == null || !(run.started.size() == n && run.callerWaits())) {
                        if (run.over || System.nanoTime() - until > 0) {
                            return;                  // serve is over, or the calls never all ran: serve's guard
                        }
                        Thread.sleep(1);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                run.caller.interrupt();
            });
            run.serve(serve, GUARD.multipliedBy(2), calls.toString());
            interrupter.join(GUARD);
        }
        Throwable thrown = run.thrown(calls.toString());
        assertInstanceOf(InterruptedException.class, thrown, calls + ": an interrupted serve must throw "
                + "InterruptedException, not " + describe(thrown));
        run.assertCancelledAndEnded(untilCancelled, calls.toString());
    }

    /** What cancels the calls (a failure, or the deadline) before the caller is interrupted. */
    record Cancelled(int calls, Failure failure, Duration deadline) {
        @Override
        public String toString() {
            return (failure != null ? calls + " calls run until call " + calls + " throws " + failure
                    : calls + " calls run until the deadline of " + deadline + " passes")
                    + "; the caller is interrupted while the cancelled calls end";
        }
    }

    @Provide
    Arbitrary<Cancelled> cancellations() {
        Arbitrary<Failure> orNone = Arbitraries.oneOf(failures(), Arbitraries.just(null));
        return Combinators.combine(Arbitraries.integers().between(1, 5), orNone,
                Arbitraries.longs().between(0, 10_000_000).map(Duration::ofNanos)).as(Cancelled::new);
    }

    @TestOrder(14)
    @Property(seed = "2007014", tries = 15)
    @net.jqwik.api.Tag("points:1")
    @Label("interrupted while the cancelled calls end: serve still waits until they have ended")
    void interruptedWhileCancelledCallsEnd(@ForAll("cancellations") Cancelled calls) throws Exception {
        int n = calls.calls();
        Run run = new Run(n + (calls.failure() == null ? 0 : 1));
        List<Callable<Object>> cs = new ArrayList<>();
        Set<Integer> untilCancelled = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            untilCancelled.add(k);
            if (k > 0) {
                cs.add(run.untilCancelled(k, AfterCancel.THROWS_INTERRUPTED_EXCEPTION, null));
                continue;
            }
            cs.add(() -> {                              // once cancelled, interrupts the caller that waits for it
                run.start(0);
                try {
                    new CountDownLatch(1).await(UNTIL_CANCELLED.toNanos(), TimeUnit.NANOSECONDS);
                    return "call 0 was never cancelled";
                } catch (InterruptedException e) {
                    run.interrupted.add(0);
                    run.lingerUntilServeWaits();
                    if (!run.over) {
                        run.caller.interrupt();
                        run.lingerUntilServeWaits(); // ends once the caller waits again, its interrupt dealt with
                    }
                    throw e;
                } finally {
                    run.ended.add(0);
                }
            });
        }
        if (calls.failure() != null) {
            cs.add(() -> {
                run.start(n);
                try {
                    run.awaitAllStarted(n);
                    throw sneaky(calls.failure().create("call " + n + " failed"));
                } finally {
                    run.ended.add(n);
                }
            });
        }
        Duration deadline = calls.failure() == null ? calls.deadline() : GENEROUS;
        run.serve(() -> Fanout.serve("r", cs, deadline), GUARD.multipliedBy(2), calls.toString());
        // What serve throws then (the failure, TimeoutException or InterruptedException) is for sentences 5, 7 and 8,
        // checked where the interrupt comes at a time that leaves one answer; here it must not have returned early.
        run.thrown(calls.toString());
        run.assertCancelledAndEnded(untilCancelled, calls.toString());
    }

    // ----------------------------------------------------------------------------------------------------------
    // Thread dumps
    // ----------------------------------------------------------------------------------------------------------

    /** A JSON thread dump of this JVM (it groups threads by container: a scope, an executor or the root). */
    private static String threadDump() throws IOException {
        Path dir = Files.createTempDirectory("fanout-dump");
        Path file = dir.resolve("threads.json");
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return Files.readString(file);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** A thread container of a dump: its name, and the id of the thread that owns it (null: none). */
    record Container(String name, String owner) {
    }

    private static final Pattern NAME = Pattern.compile("^\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern OWNER = Pattern.compile("\"owner\"\\s*:\\s*(null|\"?(\\d+)\"?)");

    /** The container that holds thread {@code tid} in a JSON thread dump. */
    private static Container containerOf(String dump, long tid) {
        String[] containers = dump.split("\"container\"\\s*:");
        for (int i = 1; i < containers.length; i++) {
            if (containers[i].matches("(?s).*\"tid\"\\s*:\\s*\"?" + tid + "\"?\\s*,.*")) {
                Matcher name = NAME.matcher(containers[i]);
                Matcher owner = OWNER.matcher(containers[i]);
                return new Container(name.find() ? name.group(1) : "a container",
                        owner.find() ? owner.group(2) : null);
            }
        }
        return new Container("no container", null);
    }
}
