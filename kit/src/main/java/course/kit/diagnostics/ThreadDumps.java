package course.kit.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Thread dumps of this JVM that list virtual threads: {@code HotSpotDiagnosticMXBean.dumpThreads} in JSON,
 * read with Jackson, one row per thread container (the root, each executor, each structured scope); and, for
 * comparison, the classic {@code jstack} view, which lists platform threads only.
 */
public final class ThreadDumps {
    private ThreadDumps() {}

    /**
     * One thread container of a dump.
     *
     * @param name     the container, for example {@code <root>} or {@code java.util.concurrent.ThreadPerTaskExecutor@5e9f}
     * @param parent   its parent container ({@code ""} for the root)
     * @param threads  the threads it holds
     * @param virtual  how many of them are virtual
     */
    public record Container(String name, String parent, int threads, int virtual) {}

    /** A dump taken now: its containers in the dump's order. The dump's file is deleted before this returns. */
    public static List<Container> containers() throws IOException {
        Path dir = Files.createTempDirectory("course-thread-dump-");
        Path file = dir.resolve("threads.json");
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** The containers of a JSON thread dump (the format of {@code jcmd PID Thread.dump_to_file -format=json}). */
    public static List<Container> parse(String json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json);
        List<Container> out = new ArrayList<>();
        for (JsonNode c : root.path("threadDump").path("threadContainers")) {
            int threads = 0, virtual = 0;
            for (JsonNode t : c.path("threads")) {
                threads++;
                if (t.path("virtual").asBoolean(false)) virtual++;
            }
            out.add(new Container(
                    c.path("container").asText(),
                    c.path("parent").isNull() ? "" : c.path("parent").asText(),
                    threads,
                    virtual));
        }
        return out;
    }

    /** The thread names {@code jstack} lists for this JVM (the classic dump: platform threads only). */
    public static List<String> jstack() throws IOException, InterruptedException {
        Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
        Process p = new ProcessBuilder(
                        jstack.toString(), Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true)
                .start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("jstack failed: " + out.lines().limit(3).toList());
            }
            return threadNames(out);
        } finally {
            p.destroyForcibly();
        }
    }

    /** The names of the threads in a classic ({@code jstack}) dump: each thread's header line starts with its quoted name. */
    static List<String> threadNames(String jstackOutput) {
        List<String> names = new ArrayList<>();
        for (String line : jstackOutput.lines().toList()) {
            if (line.startsWith("\"")) {
                int end = line.indexOf('"', 1);
                if (end > 0) names.add(line.substring(1, end));
            }
        }
        return names;
    }
}
