package course.kit.experiments;

import course.kit.Band;
import course.kit.Check;
import course.kit.Format;
import course.kit.Reproduction;
import course.kit.Scale;
import course.kit.models.HttpModel;
import course.kit.models.PoolModel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * Notebook 08's model of an HTTP service under a closed-loop load, its parameters, the leftovers check, and
 * its rows for {@code ./course reproduce} (which run a copy of the notebook cells' server, handler and load
 * generator, line for line).
 *
 * <p>The model is Little's law for a closed loop of C clients against a server whose requests hold one of
 * {@code slots} places for {@code t} each: throughput {@code λ = min(C, slots) / t}, latency {@code R = C / λ}.
 */
public final class HttpService {
    /** Jetty's default {@code maxThreads}, and Tomcat's and Spring Boot's: the classic pool. */
    public static final int POOL = 200;
    /** The downstream's own limit L in notebook 08, above the pool's 200 so that virtual threads can pass it. */
    public static final int DOWNSTREAM_LIMIT = 400;
    /** HikariCP's default {@code connectionTimeout}: how long a caller waits for a connection by default. */
    public static final Duration HIKARI_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

    private HttpService() {}

    /**
     * One scale's parameters: the downstream's time t, the concurrency levels, each run's warm-up and measuring
     * window, the most requests a run may send, the fixed handler's {@code maxWait}, and how long a client turned
     * away with 503 waits before its next request.
     *
     * <p>t is 400 ms at both scales so that the fastest server here, virtual threads at L / t = 1,000 requests/s,
     * keeps under half of a 2-core machine busy with HTTP (about 0.5 ms of CPU per request, client and server
     * together, measured on the course's 2-core VM). The full scale stops at 2,000 clients: at 5,000, the server and
     * its clients in one JVM kept two cores busy, and virtual threads reached 816 of the 1,000 requests/s.
     *
     * <p>The full scale's warm-up is 4t and its window 12t. A closed loop counts whole waves, so the window's length
     * hardly moves what the checks read: on 2 cores, a 4 s warm-up and an 8 s window measured slots / throughput
     * 400 ms for the pool and for virtual threads, p99 at C = 2,000 4,312 ms (pool) and 2,043 ms (virtual); 1.6 s and
     * 4.8 s measured 400 ms, 4,319-4,329 ms and 2,048-2,068 ms in two runs, every check inside its band, and the
     * notebook's Run All took 92-97 s instead of 186 s.
     */
    public record Plan(
            Duration t,
            List<Integer> levels,
            Duration warmUp,
            Duration window,
            int maxRequests,
            Duration maxWait,
            Duration backoff) {
        /** The course's plan at {@code scale}: the same t and shape at both scales, more levels and longer windows at full. */
        public static Plan at(Scale scale) {
            Duration t = Duration.ofMillis(400);
            return new Plan(
                    t,
                    scale.pick(List.of(50, 200, 1_000, 2_000), List.of(50, 200, 1_000)),
                    scale.pick(t.multipliedBy(4), t.multipliedBy(2)),
                    scale.pick(t.multipliedBy(12), t.multipliedBy(6)),
                    scale.pick(400_000, 100_000),
                    t.dividedBy(4),
                    // A turned-away client comes back after this. At 2,000 clients, 2 s would add some 800 retries
                    // a second, whose CPU on two cores delays every request in the handler too.
                    scale.pick(Duration.ofSeconds(10), Duration.ofSeconds(2)));
        }
    }

    // ------------------------------------------------------------------------------------------------ the model

    /**
     * What each request costs beyond {@code t} on this machine now: the baseline run's median latency above
     * {@code t} (the HTTP round trip on loopback and the hand-offs), plus the course's per-wave allowance.
     */
    public static Duration overhead(LoadResult baseline, Duration t) {
        double extra = Math.max(0, baseline.p50Millis() - t.toNanos() / 1e6);
        return Duration.ofNanos((long) (extra * 1e6))
                .plus(PoolModel.Allowances.here().perWave());
    }

    /**
     * The band for {@link LoadResult#millisPerSlot}: how long each of the {@code slots} places held a request.
     * From {@code t}, less one wave that a window of length W can cut off ({@code t·W/(W+t)}), to {@code t + δ}
     * plus one wave more ({@code (t+δ)·W/(W−t−δ)}).
     */
    public static Band slotBand(Duration t, Duration window, Duration overhead) {
        double tm = t.toNanos() / 1e6, w = window.toNanos() / 1e6, d = overhead.toNanos() / 1e6;
        if (w <= tm + d) throw new IllegalArgumentException("the window must be longer than t + δ");
        return new Band(
                tm * w / (w + tm),
                (tm + d) * w / (w - tm - d),
                "ms",
                String.format(
                        Locale.ROOT,
                        "t = %s, δ = %.1f ms per request, ± one wave in a %s window",
                        Format.duration(t),
                        d,
                        Format.duration(window)));
    }

    /**
     * The band for the p99 latency of {@code clients} queued for {@code slots} places held {@code t} each. A
     * request waits whole waves: at least ⌊C/slots⌋ of {@code t}; at most ⌈C/slots⌉ of {@code t + δ}, plus
     * one more for a request that arrives just after a wave has started.
     */
    public static Band queueBand(int clients, int slots, Duration t, Duration overhead) {
        HttpModel.requireLoop(clients, slots, t);
        int lo = Math.max(1, clients / slots), hi = Math.max(1, (clients + slots - 1) / slots) + 1;
        double tm = t.toNanos() / 1e6, d = overhead.toNanos() / 1e6;
        return new Band(
                lo * tm,
                hi * (tm + d),
                "ms",
                String.format(
                        Locale.ROOT,
                        "C/slots = %,d/%,d: %d to %d waves of t = %s, δ = %.1f ms each",
                        clients,
                        slots,
                        lo,
                        hi,
                        Format.duration(t),
                        d));
    }

    /**
     * The band for the p99 latency behind {@code tryAcquire(maxWait)}: an answer comes at the latest after
     * {@code maxWait} in the queue and {@code t} downstream; at least one downstream call, for more than 1 %
     * of the answers are served.
     */
    public static Band shedBand(Duration t, Duration maxWait, Duration overhead) {
        return shedBand(t, maxWait, overhead, Duration.ZERO);
    }

    /**
     * {@link #shedBand(Duration, Duration, Duration)} for a run whose garbage collector stopped every thread for
     * up to {@code gcPaused} within one request's {@code t + maxWait} ({@link LoadResult#gcPaused}): those
     * pauses stretch a request whatever the handler does, so the top of the band allows for them.
     */
    public static Band shedBand(Duration t, Duration maxWait, Duration overhead, Duration gcPaused) {
        double tm = t.toNanos() / 1e6, mw = maxWait.toNanos() / 1e6, d = overhead.toNanos() / 1e6;
        double gc = Objects.requireNonNull(gcPaused, "gcPaused").toNanos() / 1e6;
        if (gc < 0) throw new IllegalArgumentException("negative GC pause: " + gcPaused);
        return new Band(
                tm,
                tm + mw + d + gc + PoolModel.SLACK_FIXED.toMillis(),
                "ms",
                String.format(
                        Locale.ROOT,
                        "t + maxWait = %s + %s, δ = %.1f ms, %s+ %d ms",
                        Format.duration(t),
                        Format.duration(maxWait),
                        d,
                        gc > 0 ? String.format(Locale.ROOT, "GC pauses %.0f ms, ", gc) : "",
                        PoolModel.SLACK_FIXED.toMillis()));
    }

    /**
     * An attempt for {@link Check#timing} that hands back {@code first} (a run already measured) on its first
     * call and runs {@code rerun} on later ones, so that a sweep's run is judged without running it twice.
     */
    public static Check.Attempt<LoadResult> again(LoadResult first, Check.Attempt<LoadResult> rerun) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(rerun, "rerun");
        boolean[] used = {false};
        return () -> {
            if (!used[0]) {
                used[0] = true;
                return first;
            }
            return rerun.run();
        };
    }

    /**
     * Threads of a running Jetty server's {@link QueuedThreadPool} that its connectors keep for good, one per
     * acceptor and one per selector, and so never run a request (0 on any other pool).
     */
    public static int lent(Server server) {
        if (!(server.getThreadPool() instanceof QueuedThreadPool)) return 0;
        int n = 0;
        for (var connector : server.getConnectors()) {
            if (connector instanceof ServerConnector c)
                n += c.getAcceptors() + c.getSelectorManager().getSelectorCount();
        }
        return n;
    }

    // ------------------------------------------------------------------------------------------------ leftovers

    /**
     * What a server or a client can leave behind in this JVM: listening TCP sockets (-1 where /proc is not
     * there to count them) and live platform threads of Jetty or of {@code java.net.http}.
     */
    public record Leftovers(int listeningSockets, int serverThreads, List<String> threadNames) {
        /** This JVM now. */
        public static Leftovers now() {
            var names = new ArrayList<String>();
            for (var e : Thread.getAllStackTraces().entrySet()) {
                Thread th = e.getKey();
                if (th.isAlive() && isServerThread(th.getName(), e.getValue())) names.add(th.getName());
            }
            names.sort(null);
            return new Leftovers(countListeningSockets(), names.size(), List.copyOf(names));
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "%s listening sockets, %d Jetty or HTTP-client threads%s",
                    listeningSockets < 0 ? "unknown" : String.valueOf(listeningSockets),
                    serverThreads,
                    threadNames.isEmpty() ? "" : " " + threadNames);
        }
    }

    static boolean isServerThread(String name, StackTraceElement[] stack) {
        if (name.startsWith("qtp") || name.startsWith("jetty-") || name.startsWith("HttpClient-")) return true;
        for (StackTraceElement f : stack) {
            String c = f.getClassName();
            if (c.startsWith("org.eclipse.jetty.") || c.startsWith("jdk.internal.net.http.")) return true;
        }
        return false;
    }

    /** Listening TCP sockets (IPv4 and IPv6) that this process holds, read from /proc; -1 where /proc is absent. */
    static int countListeningSockets() {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) return -1;
        Set<String> listening = new HashSet<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            try {
                for (String line :
                        Files.readAllLines(Path.of(table)).stream().skip(1).toList()) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && "0A".equals(f[3])) listening.add(f[9]); // state 0A: LISTEN; field 9: inode
                }
            } catch (IOException e) {
                // no IPv6 table on this machine: nothing listens there
            }
        }
        int n = 0;
        try (var stream = Files.list(fds)) {
            for (Path fd : stream.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[") && listening.contains(target.substring(8, target.length() - 1)))
                        n++;
                } catch (IOException e) {
                    // closed between the listing and the read
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }

    // ------------------------------------------------------------------------ notebook 08's cells, for reproduce

    /** Notebook 08's handler: one downstream call per request, {@code "row " + id} as the answer. */
    static Handler service(Database db, HandlerMeter meter) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                try (var visit = meter.enter()) {
                    String row = db.query(visit.id());
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                    Content.Sink.write(response, true, row, callback);
                }
                return true;
            }
        };
    }

    /**
     * Notebook 08's fixed handler: at most {@code permits} downstream calls at once; a 503 after {@code maxWait},
     * with {@code Retry-After} 2 s (the quick scale's back-off; the tests' clients do not read it).
     */
    static Handler shedding(Database db, HandlerMeter meter, Semaphore permits, Duration maxWait) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                try (var visit = meter.enter()) {
                    if (!permits.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
                        response.setStatus(503);
                        response.getHeaders().put(HttpHeader.RETRY_AFTER, "2");
                        Content.Sink.write(response, true, "busy", callback);
                        return true;
                    }
                    try {
                        String row = db.query(visit.id());
                        Content.Sink.write(response, true, row, callback);
                    } finally {
                        permits.release();
                    }
                }
                return true;
            }
        };
    }

    /** Notebook 08's server: Jetty on {@code threads}, on 127.0.0.1, on a free port. */
    static Server serve(ThreadPool threads, Handler handler) throws Exception {
        var server = new Server(threads);
        var config = new HttpConfiguration();
        config.setHeaderCacheSize(0); // a 30 KB header cache per connection is 30 MB at 1,000 for the GC to copy
        var http = new ServerConnector(server, new HttpConnectionFactory(config));
        http.setHost("127.0.0.1");
        http.setPort(0);
        http.setAcceptQueueSize(8_192);
        server.addConnector(http);
        server.setHandler(handler);
        try {
            server.start();
        } catch (Exception e) {
            server.stop();
            throw e;
        }
        return server;
    }

    /** Notebook 08's load generator: C clients in a closed loop, each on its own virtual thread. */
    static LoadResult load(String name, URI target, int clients, HandlerMeter meter, Plan plan) throws Exception {
        var rec = LoadRecorder.start(name, target, clients, plan.warmUp(), plan.window(), plan.maxRequests());
        try (var clientThreads = Executors.newVirtualThreadPerTaskExecutor();
                var http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .executor(clientThreads)
                        .build();
                var users = Executors.newVirtualThreadPerTaskExecutor()) {
            var request = HttpRequest.newBuilder(target)
                    .timeout(HIKARI_CONNECTION_TIMEOUT)
                    .build();
            for (int c = 0; c < clients; c++) {
                users.submit(() -> {
                    while (rec.more()) {
                        int status = rec.exchange(() -> http.send(request, HttpResponse.BodyHandlers.discarding())
                                .statusCode());
                        if (status == 503) Thread.sleep(Math.min(jittered(plan.backoff()), rec.millisLeft()));
                    }
                    return null;
                });
            }
        }
        return rec.stop(meter);
    }

    /** Notebook 08's back-off after a 503: from {@code d/2} to {@code 3d/2}, in ms, so that clients do not return at once. */
    static long jittered(Duration d) {
        return java.util.concurrent.ThreadLocalRandom.current().nextLong(d.toMillis() / 2, d.toMillis() * 3 / 2 + 1);
    }

    /** Notebook 08's run: a server on {@code threads} with the handler {@code handler} makes, under load, then stopped. */
    static LoadResult run(
            String name,
            ThreadPool threads,
            java.util.function.Function<HandlerMeter, Handler> handler,
            int clients,
            Plan plan)
            throws Exception {
        var meter = new HandlerMeter();
        Server server = serve(threads, handler.apply(meter));
        try {
            return load(name, server.getURI(), clients, meter, plan);
        } finally {
            server.stop();
        }
    }

    /**
     * Notebook 08's pool of {@code size} platform threads, without reserved threads: every request waits its turn
     * in the pool's queue, first come, first served. With Jetty's reserved threads, a request that arrives when one
     * is free skips the queue, and the others wait longer: at C = 1,000 on the pool of 200 (eight runs each way,
     * outside the notebook) the p50 rose from 2,005–2,011 ms to 2,012–2,321 ms and the p99 from 2,200–2,301 ms to
     * 2,252–2,837 ms, against the model's C·t / 198 = 2,020 ms.
     */
    static ThreadPool poolOf(int size) {
        var threads = new QueuedThreadPool(size);
        threads.setReservedThreads(0);
        return threads;
    }

    /**
     * Notebook 08's virtual-thread server pool: Jetty's acceptor and selectors on the pool's platform threads, each
     * request on a new virtual thread (Jetty's {@code threadpool-virtual} setup).
     */
    static ThreadPool virtualThreads() {
        var threads = new QueuedThreadPool();
        threads.setVirtualThreadsExecutor(request -> Thread.ofVirtual().start(request));
        return threads;
    }

    /**
     * {@code ./course reproduce}: the pool of 200 and virtual threads at the top concurrency level, against a
     * downstream with a limit of {@link #DOWNSTREAM_LIMIT}; throughput against {@code slots / t}, p99 against
     * {@code C·t/slots}. A run whose throughput misses its band is run again, up to {@link Check#TIMING_TRIES}.
     */
    public static List<Reproduction> reproduce(Scale scale) throws Exception {
        Plan plan = Plan.at(Objects.requireNonNull(scale, "scale"));
        Duration t = plan.t();
        int top = plan.levels().getLast(), limit = DOWNSTREAM_LIMIT;
        Database db = new SimulatedDatabase(limit, t, HIKARI_CONNECTION_TIMEOUT);
        LoadResult baseline =
                run("baseline", poolOf(POOL), m -> service(db, m), plan.levels().getFirst(), plan);
        Band band = slotBand(t, plan.window(), overhead(baseline, t));
        List<Reproduction> rows = new ArrayList<>();
        record Server8(String name, Supplier<ThreadPool> threads, int slots) {}
        for (var s : List.of(
                new Server8("a pool of 200", () -> poolOf(POOL), POOL),
                new Server8("virtual threads", HttpService::virtualThreads, limit))) {
            LoadResult r = null;
            for (int i = 0; i < Check.TIMING_TRIES && (r == null || !band.contains(r.millisPerSlot(s.slots()))); i++) {
                r = run(s.name(), s.threads().get(), m -> service(db, m), top, plan);
            }
            String note = String.format(
                    Locale.ROOT,
                    "C = %,d closed-loop clients, t = %s, downstream limit %d; %,d answered, %,d failed; "
                            + "at most %,d requests in the handler",
                    top,
                    Format.duration(t),
                    limit,
                    r.answers().answered(),
                    r.answers().failed(),
                    r.peakInHandler());
            rows.add(new Reproduction(
                    "HTTP server on " + s.name() + ": throughput = " + s.slots() + " / t",
                    "004",
                    "(not measured: articles 000, 004 argue it)",
                    HttpModel.throughput(top, s.slots(), t),
                    r.throughput(),
                    "requests/s",
                    note));
            rows.add(new Reproduction(
                    "HTTP server on " + s.name() + ": p99 ≈ R = C·t / " + s.slots(),
                    "004",
                    "(not measured)",
                    HttpModel.latencyMillis(top, s.slots(), t),
                    r.p99Millis(),
                    "ms",
                    note));
        }
        return rows;
    }
}
