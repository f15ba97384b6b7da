package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Grader#eachAtOnce}: how {@code ./course grade} grades several exercises at once. */
class EachAtOnceTest {

    @Test
    void two_jobs_grade_two_exercises_at_the_same_time_and_keep_their_order() {
        var both = new CountDownLatch(2);
        List<String> results = Grader.eachAtOnce(List.of("01-a", "02-b", "03-c", "04-d"), 2, e -> {
            both.countDown();
            try {
                // Each of the first two waits for the other: only two gradings running at once get past this.
                assertTrue(both.await(30, TimeUnit.SECONDS), e + " ran alone");
            } catch (InterruptedException ie) {
                throw new IllegalStateException(ie);
            }
            return e.toUpperCase();
        });
        assertEquals(List.of("01-A", "02-B", "03-C", "04-D"), results);
    }

    @Test
    void never_more_than_jobs_at_once() {
        var running = new AtomicInteger();
        var peak = new AtomicInteger();
        var gate = new CountDownLatch(3);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Grader.eachAtOnce(List.of("a", "b", "c", "d", "e", "f"), 3, e -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            threads.add(Thread.currentThread().getName());
            gate.countDown();
            try {
                gate.await(30, TimeUnit.SECONDS); // the first three meet; later ones pass at once
            } catch (InterruptedException ie) {
                throw new IllegalStateException(ie);
            }
            running.decrementAndGet();
            return e;
        });
        assertEquals(3, peak.get());
        assertEquals(3, threads.size());
    }

    @Test
    void one_job_grades_on_the_callers_thread_one_after_the_other() {
        Thread caller = Thread.currentThread();
        List<Thread> seen = Grader.eachAtOnce(List.of("a", "b"), 1, e -> Thread.currentThread());
        assertEquals(List.of(caller, caller), seen);
    }

    @Test
    void a_grading_that_throws_is_rethrown_after_the_others_end() {
        var ended = new AtomicInteger();
        var boom = new IllegalStateException("grader failure");
        IllegalStateException thrown = assertThrows(
                IllegalStateException.class,
                () -> Grader.eachAtOnce(List.of("a", "b", "c"), 2, e -> {
                    if (e.equals("b")) throw boom;
                    ended.incrementAndGet();
                    return e;
                }));
        assertSame(boom, thrown);
        assertEquals(2, ended.get());
    }

    @Test
    void jobs_below_one_are_refused() {
        assertThrows(IllegalArgumentException.class, () -> Grader.eachAtOnce(List.of("a"), 0, e -> e));
    }
}
