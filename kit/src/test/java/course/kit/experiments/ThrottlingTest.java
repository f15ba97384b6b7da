package course.kit.experiments;

import static java.time.Duration.ofMillis;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.experiments.Throttling.ConnectionPool;
import course.kit.experiments.Throttling.Permit;
import course.kit.experiments.Throttling.Plan;
import course.kit.experiments.Throttling.PoolExhausted;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ThrottlingTest {
    // a hold far longer than the connection wait: the burst of 100 virtual threads arrives well within it
    static final Duration HOLD = ofMillis(200), WAIT = ofMillis(10);

    @Test
    void poolHandsOutAtMostItsCapacityAndTimesOut() throws Exception {
        var db = new ConnectionPool(2, ofMillis(5));
        var a = db.borrow();
        var b = db.borrow();
        var e = assertThrows(PoolExhausted.class, db::borrow);
        assertTrue(e.getMessage().contains("all 2 in use"), e.getMessage());
        assertEquals(2, db.inUse());
        a.close();
        a.close(); // a second close gives nothing back twice
        assertEquals(1, db.inUse());
        try (var c = db.borrow()) {
            assertEquals(2, db.peakInUse());
        }
        b.close();
        assertEquals(0, db.inUse());
        assertEquals(3, db.borrowed());
        assertEquals(1, db.timeouts());
        assertThrows(IllegalStateException.class, () -> b.query(ofMillis(1)));
    }

    @Test
    void rejectsImpossiblePlans() {
        assertThrows(IllegalArgumentException.class, () -> new ConnectionPool(0, WAIT));
        assertThrows(IllegalArgumentException.class, () -> Plan.throttled(10, 5, WAIT, HOLD, 0));
        assertThrows(IllegalArgumentException.class, () -> Plan.unthrottled(-1, 5, WAIT, HOLD));
        assertThrows(IllegalArgumentException.class, () -> Plan.unthrottled(1, 5, WAIT, Duration.ZERO));
    }

    @Test
    void unthrottledBurstExhaustsThePool() throws Exception {
        var r = Throttling.run("raw", Plan.unthrottled(100, 10, WAIT, HOLD));
        // exactly 90 when the burst arrives within HOLD − WAIT; the range allows for a slow, busy machine
        int[] range = Throttling.predictedTimeouts(100, 10, WAIT, HOLD, Duration.ofNanos(r.arrivalSpreadNanos()));
        assertTrue(r.poolTimeouts() >= range[0] && r.poolTimeouts() <= range[1], "time-outs " + r.poolTimeouts());
        assertTrue(r.poolTimeouts() > 0);
        assertEquals(100, r.ok() + r.poolTimeouts());
        assertEquals(10, r.peakConnections());
        assertEquals(10, r.peakInFlight());
        assertTrue(r.peakAlive() > 10, "threads alive " + r.peakAlive()); // every call started, not just 10
        assertArrayEquals(new int[] {90, 90}, Throttling.predictedTimeouts(100, 10, WAIT, HOLD, ofMillis(5)));
    }

    @Test
    void semaphoreInTheThreadKeepsTheCapAndLosesNothing() throws Exception {
        var r = Throttling.run("throttled", Plan.throttled(60, 10, WAIT, ofMillis(5), 10));
        assertEquals(60, r.ok());
        assertEquals(0, r.poolTimeouts());
        assertEquals(10, r.peakInFlight());
        assertEquals(10, r.permitsAfter());
        assertEquals(0, r.leakedPermits());
        assertTrue(r.results().length == 60 && r.count(Throttling.Result.OK) == 60);
    }

    @Test
    void permitBeforeTheThreadKeepsThreadsAliveWithinThePermits() throws Exception {
        var r = Throttling.run("before", Plan.throttled(60, 10, WAIT, ofMillis(5), 10).withPermit(Permit.BEFORE_THREAD));
        assertEquals(60, r.ok());
        assertTrue(r.peakAlive() <= 10, "threads alive " + r.peakAlive());
        assertEquals(10, r.permitsAfter());
    }

    @Test
    void permitAfterTheConnectionProtectsNothing() throws Exception {
        var r = Throttling.run("after", Plan.throttled(100, 10, WAIT, HOLD, 10).withPermit(Permit.AFTER_CONNECTION));
        int[] range = Throttling.predictedTimeouts(100, 10, WAIT, HOLD, Duration.ofNanos(r.arrivalSpreadNanos()));
        assertTrue(r.poolTimeouts() >= range[0] && r.poolTimeouts() <= range[1], "time-outs " + r.poolTimeouts());
        assertTrue(r.poolTimeouts() > 0);
        assertEquals(10, r.permitsAfter());
    }

    @Test
    void aPermitReleasedOutsideFinallyLeaksOncePerFailure() throws Exception {
        var plan = Plan.throttled(40, 10, WAIT, ofMillis(2), 10).withPermitWait(ofMillis(300)).withFailures(4, false);
        var r = Throttling.run("leak", plan);
        assertEquals(r.serviceErrors(), r.leakedPermits());
        assertTrue(r.leakedPermits() > 0);
        assertEquals(40, r.ok() + r.serviceErrors() + r.rejected());
        var fixed = Throttling.run("fixed", plan.withFailures(4, true));
        assertEquals(10, fixed.permitsAfter());
        assertEquals(10, fixed.serviceErrors());
        assertEquals(30, fixed.ok());
    }

    @Test
    void tryAcquireWithATimeOutTurnsCallersAway() throws Exception {
        var r = Throttling.run("bp", Plan.throttled(100, 10, WAIT, HOLD, 10).withPermitWait(ofMillis(20)));
        int[] acc = Throttling.predictedAccepted(100, 10, ofMillis(20), HOLD, Duration.ofNanos(r.arrivalSpreadNanos()));
        assertEquals(10, acc[0]);
        assertTrue(r.ok() >= acc[0] && r.ok() <= acc[1], "accepted " + r.ok());
        assertEquals(100 - r.ok(), r.rejected());
        assertEquals(0, r.poolTimeouts());
        assertEquals(0, r.leakedPermits());
    }

    @Test
    void reproductionRowsNameArticle002sPoolOf50() throws Exception {
        var rows = Throttling.reproduce(course.kit.Scale.QUICK);
        assertEquals(2, rows.size());
        assertEquals(50.0, rows.get(0).predicted(), 1e-9);
        assertEquals(50.0, rows.get(0).measured(), 1e-9); // the pool's own count: the cap binds, exactly
        assertEquals(500.0, rows.get(1).predicted(), 1e-9); // 50 permits / 100 ms
        assertTrue(rows.stream().allMatch(r -> r.article().equals("002")));
    }

    @Test
    void inFlightCurveNeverExceedsThePeak() throws Exception {
        var r = Throttling.run("curve", Plan.throttled(30, 5, WAIT, ofMillis(3), 5));
        double[][] c = r.inFlightOverTime(50);
        for (double y : c[1]) assertTrue(y <= 5, "in flight " + y);
        assertTrue(Throttling.table("t", r).rowCount() == 1);
    }
}
