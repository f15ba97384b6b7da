package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.charts.Charts;
import course.kit.models.PoolModel;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The café of notebook 02 on traced virtual threads: the trace costs too little to leave the café's band. */
class CarrierTraceIT {
    private static final int CUSTOMERS = 10_000;
    private static final Duration BREW = Duration.ofMillis(200); // the quick scale's brew

    private static RunResult cafe(String name, ExecutorService staff) {
        var rec = Recorder.quiet(name, name, CUSTOMERS);
        try (staff) {
            for (int i = 0; i < CUSTOMERS; i++) staff.submit(rec.task(() -> Thread.sleep(BREW)));
        }
        return rec.stop();
    }

    private record Traced(RunResult run, CarrierTimeline carriers) {}

    @Test
    void theTracedCafeStaysInsideTheCafesBand() throws Exception {
        // as in the notebook, where the untraced café ran first: the virtual-thread code is warm, the trace's is not
        cafe("untraced", Executors.newVirtualThreadPerTaskExecutor());
        var traced = Check.timing(
                "virtual thread per customer, traced, elapsed",
                PoolModel.band(CUSTOMERS, 0, BREW),
                () -> {
                    var trace = CarrierTrace.start("virtual thread per customer");
                    var run = cafe("traced", Executors.newThreadPerTaskExecutor(trace.factory()));
                    return new Traced(run, trace.stop());
                },
                t -> t.run().elapsedMillis());
        var tl = traced.carriers();
        assertTrue(tl.exact());
        assertEquals(CUSTOMERS, tl.virtualThreads());
        assertTrue(tl.count() >= 2 * CUSTOMERS, "each customer mounts to sleep, then to finish: " + tl.count());
        assertEquals(0, tl.dropped());
        int carriers = Runtime.getRuntime().availableProcessors();
        assertTrue(
                tl.carriers().size() <= CarrierTrace.MAX_CARRIERS, tl.carriers().toString());
        long busy = tl.carriers().stream().mapToLong(c -> tl.busy(c).toNanos()).sum();
        assertTrue(
                busy < (long) carriers * traced.run().elapsed().toNanos(),
                "the carriers were mostly idle while 10,000 threads slept: " + tl);
        var lanes = Charts.carriers(tl);
        long t0 = System.nanoTime();
        byte[] png = lanes.png();
        long drawn = System.nanoTime() - t0;
        assertTrue(png.length > 0);
        System.out.printf("%s%ndrawn and encoded in %.0f ms%n", lanes, drawn / 1e6);
    }
}
