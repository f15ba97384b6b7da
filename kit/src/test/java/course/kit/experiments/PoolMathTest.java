package course.kit.experiments;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.PoolModel;
import course.kit.Reproduction;
import course.kit.Scale;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PoolMathTest {

    @Test
    void batchTimeIsCeilOfTasksOverPoolTimesTaskTime() {
        assertEquals(ofSeconds(50), PoolModel.batchTime(10_000, 200, ofSeconds(1)));
        assertEquals(ofSeconds(51), PoolModel.batchTime(10_001, 200, ofSeconds(1)));
        assertEquals(ofSeconds(4), PoolModel.batchTime(10, 3, ofSeconds(1)));
        assertEquals(Duration.ZERO, PoolModel.batchTime(0, 3, ofSeconds(1)));
        assertEquals(3, PoolModel.waves(21, 10));
        assertEquals(1, PoolModel.waves(Integer.MAX_VALUE, Integer.MAX_VALUE));
    }

    @Test
    void rejectsImpossibleArguments() {
        var e = assertThrows(IllegalArgumentException.class, () -> PoolModel.waves(5, 0));
        assertTrue(e.getMessage().contains("at least 1 thread"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PoolModel.waves(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> PoolModel.batchTime(1, 1, ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.littleThroughput(1, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.fifoSchedule(List.of(ofMillis(1)), 0));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.threeCalls(List.of()));
        assertThrows(IllegalArgumentException.class, () -> PoolMath.sweep(new int[] {1}, new int[] {1}, Duration.ZERO));
    }

    @Test
    void littlesLaw() {
        assertEquals(200.0, PoolMath.littleThroughput(200, ofSeconds(1)), 1e-9);
        assertEquals(20.0, PoolMath.littleThroughput(10, ofMillis(500)), 1e-9);
    }

    @Test
    void fifoGivesEachTaskToTheFirstFreeWorker() {
        // A: 3 s; B: 1 s, 1 s, 1 s -> 3 s (round-robin would give 4 s)
        assertEquals(ofSeconds(3), PoolMath.fifoMakespan(PoolMath.units(ofSeconds(1), 3, 1, 1, 1), 2));
        // list order is kept: the long task last ends at 4 s
        assertEquals(ofSeconds(4), PoolMath.fifoMakespan(PoolMath.units(ofSeconds(1), 1, 1, 1, 3), 2));
        var s = PoolMath.fifoSchedule(PoolMath.units(ofSeconds(1), 1, 1, 1, 3), 2);
        assertEquals(List.of(0, 1, 0, 1), s.stream().map(PoolMath.Slot::worker).toList());
        assertEquals(ofSeconds(1), s.get(3).start());
        assertEquals(2, PoolMath.longestChain(s));
        assertEquals(Duration.ZERO, PoolMath.fifoMakespan(List.of(), 3));
    }

    @Test
    void orderMattersForTheNotebooksWorkload() {
        assertEquals(ofSeconds(6), PoolMath.fifoMakespan(PoolMath.units(ofSeconds(1), 1, 1, 1, 1, 1, 1, 1, 1, 4), 3));
        assertEquals(ofSeconds(4), PoolMath.fifoMakespan(PoolMath.units(ofSeconds(1), 4, 1, 1, 1, 1, 1, 1, 1, 1), 3));
    }

    @Test
    void makespanRunsOnAFixedPoolOfPlatformThreads() throws Exception {
        var r = PoolMath.makespan("test", PoolMath.units(ofMillis(5), 1, 1, 1, 4), 2);
        assertEquals(4, r.run().count());
        assertEquals(2, r.run().peakConcurrency());
        assertEquals(0, r.run().virtualTasks());
        assertEquals(0, r.run().failed());
        assertEquals(ofMillis(25), r.predicted()); // A: 5, 5; B: 5, then 20 from 5 ms
    }

    @Test
    void sweepRunsEveryPointOnPoolsOfTheGivenSize() throws Exception {
        var pts = PoolMath.sweep(new int[] {2, 3}, new int[] {1, 4, 5}, ofMillis(2));
        assertEquals(6, pts.size());
        assertEquals(List.of(1, 2, 3, 1, 2, 2), pts.stream().map(PoolMath.SweepPoint::waves).toList());
        assertEquals(3 * 2.0, pts.get(2).predictedMillis(), 1e-9);
        assertTrue(PoolMath.sweepChart(pts, ofMillis(2)).getSeriesCollection().size() == 4);
    }

    @Test
    void littleRunsPoolsAndVirtualThreads() throws Exception {
        var pts = PoolMath.little(new int[] {1, 4}, 2, new int[] {50}, ofMillis(2));
        assertEquals(3, pts.size());
        assertEquals(8, pts.get(1).tasks());
        assertEquals("virtual threads", pts.get(2).executor());
        assertEquals(25_000.0, pts.get(2).predictedPerSecond(), 1e-6);
        assertTrue(pts.get(2).lowestPerSecond() < pts.get(2).predictedPerSecond());
    }

    @Test
    void threeCallsRunOneThreadThenOneVirtualThreadEach() throws Exception {
        var r = PoolMath.threeCalls(List.of(ofMillis(3), ofMillis(4), ofMillis(5)));
        assertEquals(ofMillis(12), r.predictedSequential());
        assertEquals(ofMillis(5), r.predictedParallel());
        assertEquals(1, r.sequential().peakConcurrency());
        assertEquals(1, r.sequential().threadsUsed());
        assertEquals(3, r.parallel().virtualTasks());
    }

    @Test
    void slackGrowsWithWavesAndThreads() {
        assertEquals(PoolModel.SLACK_FIXED, PoolModel.slack(0, 0, 0));
        assertTrue(PoolModel.slack(10, 0, 0).compareTo(PoolModel.slack(1, 0, 0)) > 0);
        assertTrue(PoolModel.slack(1, 0, 10_000).compareTo(PoolModel.slack(1, 0, 0)) > 0);
    }

    @Test
    void reproductionRowsNameArticle002() throws Exception {
        // runs the article's calls (1.7 s): the rows must be the two figures the article reported
        List<Reproduction> rows = PoolMath.reproduce(Scale.QUICK);
        assertEquals(2, rows.size());
        assertEquals(1200.0, rows.get(0).predicted(), 1e-9);
        assertEquals(500.0, rows.get(1).predicted(), 1e-9);
        assertTrue(rows.stream().allMatch(r -> r.article().equals("002") && r.measured() > 0));
    }
}
