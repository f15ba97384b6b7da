package course.exercises.threadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.Probe;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

    @Order(1)
    @Test
    @Tag("points:1")
    @DisplayName("a negative count throws IllegalArgumentException")
    void negativeCountIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> ThreadCost.startAll(Thread.ofVirtual(), -1, () -> { }),
                "startAll(builder, -1, task) must throw IllegalArgumentException");
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
        ThreadCost.startAll(Thread.ofVirtual(), 200, probe.wrap(NOTHING));
        assertEquals(200, probe.entered(), "tasks that ran");
        assertEquals(200, probe.virtualCount(), "tasks that ran on a virtual thread (the builder was Thread.ofVirtual())");
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

    @Order(5)
    @Test
    @Tag("points:3")
    @Timeout(15)
    @DisplayName("starts every thread before joining any: all 200 threads are running at once")
    void startsAllBeforeJoiningAny() throws InterruptedException {
        int count = 200; // more than a small pool or a batch of threads would hold
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

    @Order(7)
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

    @Order(8)
    @Test
    @Tag("points:1")
    @DisplayName("the returned duration covers the threads' work, and no more than the call")
    void durationCoversTheWork() throws InterruptedException {
        long before = System.nanoTime();
        Duration elapsed = ThreadCost.startAll(Thread.ofVirtual(), 10, () -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Duration call = Duration.ofNanos(System.nanoTime() - before);
        assertNotNull(elapsed, "startAll must return a Duration, not null");
        assertTrue(elapsed.compareTo(Duration.ofMillis(50)) >= 0,
                "every task sleeps 50 ms, so the elapsed time must be at least PT0.05S, was " + elapsed);
        assertTrue(elapsed.compareTo(call) <= 0,
                "the elapsed time cannot be longer than the call to startAll (" + call + "), was " + elapsed);
    }
}
