package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariPoolMXBean;
import course.kit.Recorder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PoolGaugeTest {
    /** A pool whose numbers the test sets; it counts how often the gauge read them. */
    static final class FakePool implements HikariPoolMXBean {
        final AtomicInteger active = new AtomicInteger(), idle = new AtomicInteger(), waiting = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public int getActiveConnections() {
            reads.incrementAndGet();
            return active.get();
        }

        @Override
        public int getIdleConnections() {
            return idle.get();
        }

        @Override
        public int getTotalConnections() {
            return active.get() + idle.get();
        }

        @Override
        public int getThreadsAwaitingConnection() {
            return waiting.get();
        }

        @Override
        public void softEvictConnections() {}

        @Override
        public void suspendPool() {}

        @Override
        public void resumePool() {}
    }

    @Test
    void itRecordsWhatThePoolSaidAndDrawsItNextToTheRun() throws Exception {
        var pool = new FakePool();
        pool.idle.set(5);
        var gauge = PoolGauge.start(pool);
        var rec = Recorder.start("run", 1);
        rec.task(() -> {
                    pool.active.set(3);
                    pool.idle.set(2);
                    pool.waiting.set(7);
                    int seen = pool.reads.get();
                    while (pool.reads.get() < seen + 2) Thread.onSpinWait(); // a whole sample taken after the change
                    pool.active.set(1);
                    pool.waiting.set(0);
                })
                .run();
        var run = rec.stop();
        var samples = gauge.stop();
        assertEquals(3, samples.peakActive());
        assertEquals(7, samples.peakWaiting());
        assertEquals(0, samples.waiting()[samples.count() - 1]); // the last sample, taken by stop()
        assertTrue(
                samples.stoppedAt() >= run.elapsedSeconds(), "the gauge started before the run and stopped after it");
        for (int i = 1; i < samples.count(); i++) assertTrue(samples.seconds()[i] >= samples.seconds()[i - 1]);
        var chart = PoolGauge.chart("t", run, samples, 50);
        assertEquals(
                4,
                chart.getSeriesCollection().size()); // the course's counter, active + waiting, active, the pool's size
    }
}
