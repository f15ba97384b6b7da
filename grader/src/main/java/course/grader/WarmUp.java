package course.grader;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Failure;
import course.base.TestOrder;
import course.base.probe.Probe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The workload of {@link WorkerCache}'s training run: tests written the way the exercises' tests are (ordered,
 * tagged with points, with timeouts, executors, virtual threads, latches and a {@link Probe}), so that the classes
 * a test JVM loads for any exercise are in the cache. Main code, not test code: it is never graded, and runs only
 * as that workload (and in {@code WorkerCacheIT}, which checks that a test JVM runs it from a trained cache).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("the grader's warm-up")
class WarmUp {
    @Test
    @Order(1)
    @Tag("points:1")
    @DisplayName("tasks on virtual threads, counted by a probe")
    void virtualThreads() throws Exception {
        Probe probe = new Probe();
        CountDownLatch started = new CountDownLatch(4);
        Callable<Boolean> task = probe.wrap(() -> {
            started.countDown();
            return Thread.currentThread().isVirtual();
        });
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Future<Boolean> f : executor.invokeAll(List.of(task, task, task, task))) {
                assertTrue(f.get());
            }
        }
        assertEquals(4, probe.virtualCount());
        assertTrue(started.await(1, TimeUnit.SECONDS));
    }

    @Test
    @Order(2)
    @Tag("points:2")
    @Timeout(5)
    @DisplayName("a fixed pool and a semaphore, closed in order")
    void fixedPool() throws Exception {
        Semaphore permits = new Semaphore(2);
        try (var pool = Executors.newFixedThreadPool(2)) {
            Future<Integer> f = pool.submit(() -> {
                permits.acquire();
                try {
                    Thread.sleep(Duration.ofMillis(1));
                    return permits.availablePermits();
                } finally {
                    permits.release();
                }
            });
            assertEquals(1, f.get());
        }
        assertAll(
                () -> assertEquals(2, permits.availablePermits()),
                () -> assertTrue(Thread.ofVirtual().unstarted(() -> {}).isVirtual()));
    }

    @Test
    @Order(3)
    @Tag("points:1")
    @DisplayName("a failing call is reported with its cause")
    void failure() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> {
            try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
                executor.submit(() -> {
                            throw new IllegalStateException("expected");
                        })
                        .get();
            }
        });
        assertEquals("expected", e.getCause().getMessage());
        assertThrows(AssertionError.class, () -> assertEquals(1, 2, "a failed assertion's message"));
    }

    /** Inputs drawn the ways the exercises' properties draw theirs. */
    record Input(int count, Duration duration, Failure failure, List<Integer> order) {}

    @Provide
    Arbitrary<Input> inputs() {
        Arbitrary<Duration> durations = Arbitraries.longs()
                .between(0, 2_500_000_000L)
                .withDistribution(RandomDistribution.uniform())
                .map(Duration::ofNanos);
        Arbitrary<Failure> failures = Combinators.combine(
                        Arbitraries.of(Failure.Kind.class), Arbitraries.of(true, false))
                .as(Failure::new);
        return Arbitraries.integers()
                .between(0, 64)
                .flatMap(n -> Combinators.combine(
                                Arbitraries.just(n),
                                Arbitraries.oneOf(durations, Arbitraries.just(Duration.ofMillis(1))),
                                failures,
                                Arbitraries.integers()
                                        .between(0, Math.max(0, n - 1))
                                        .list()
                                        .ofMaxSize(n)
                                        .uniqueElements())
                        .as(Input::new));
    }

    /** A jqwik property, as the exercises write theirs: jqwik's engine, generators and reporting are in the cache. */
    @TestOrder(4)
    @Property(seed = "20261206", tries = 40)
    @net.jqwik.api.Tag("points:1")
    @Label("a property over counts, durations to the nanosecond and every kind of failure")
    void property(@ForAll("inputs") Input input, @ForAll @IntRange(min = 1, max = 8) int threads) throws Exception {
        assertTrue(input.order().size() <= input.count());
        Throwable thrown = input.failure().create("expected");
        assertEquals(input.failure().withCause(), thrown.getCause() != null);
        try (var executor = Executors.newFixedThreadPool(threads)) {
            assertEquals(input.duration(), executor.submit(input::duration).get());
        }
    }
}
