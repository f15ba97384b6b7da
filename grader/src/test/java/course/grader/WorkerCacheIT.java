package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trained {@link WorkerCache} is one the test JVM uses: with an exercise's folder after the grader's jars, the JVM
 * loads the grader's classes from the cache and runs its tests.
 */
class WorkerCacheIT {
    @TempDir
    Path dir;

    @Test
    void a_trained_cache_starts_a_test_jvm_with_folders_after_the_jars() throws Exception {
        List<Path> runtime = Classpaths.runtime();
        assertTrue(runtime.stream().allMatch(p -> p.toString().endsWith(".jar")), "failsafe runs on jars: " + runtime);
        var cache = new WorkerCache(dir.resolve("aot"), runtime, ForkedTests.JVM_OPTIONS);
        assertTrue(cache.trainAndWait(ForkedTests.trainingCommand(runtime)), "the training run made a cache");
        try (var left = Files.list(dir.resolve("aot"))) {
            assertEquals(List.of(cache.file()), left.toList(), "the cache alone: no lock or partial file");
        }

        List<Path> classpath = new ArrayList<>(runtime);
        classpath.add(Files.createDirectories(dir.resolve("test-classes")));
        Files.writeString(classpath.getLast().resolve("placeholder.txt"), "an exercise's folder is not empty");
        Path results = dir.resolve("results.txt");
        List<String> command = ForkedTests.command(
                classpath,
                List.of(WarmUp.class.getName()),
                false,
                List.of("-XX:AOTCache=" + cache.file(), "-Xlog:class+load=info"),
                List.of(results.toString(), "5", "classes", WarmUp.class.getName()));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("jvm.log").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the test JVM ended");
        assertEquals(0, p.exitValue(), () -> "the test JVM failed:\n" + read(dir.resolve("jvm.log")));
        assertTrue(
                read(dir.resolve("jvm.log")).contains("course.grader.TestWorker source: shared objects file"),
                "the test JVM loaded the grader from the cache");
        List<List<String>> ended = Files.readAllLines(results).stream()
                .map(Wire::fields)
                .filter(f -> f.getFirst().equals(Wire.END))
                .toList();
        assertEquals(4, ended.size(), "WarmUp's three tests and its property ran: " + ended);
        assertTrue(ended.stream().allMatch(f -> f.get(2).equals("SUCCESSFUL")), ended.toString());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "(no log)";
        }
    }
}
