package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link WorkerCache}: which cache file a class path gets, and what happens without one. */
class WorkerCacheTest {
    @TempDir
    Path dir;

    private Path jar(String name) throws Exception {
        Path jar = dir.resolve(name);
        Files.writeString(jar, "not really a jar: its contents count");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_000_000L));
        return jar;
    }

    @Test
    void the_same_jars_and_options_name_the_same_file_and_a_rebuilt_jar_another() throws Exception {
        Path a = jar("a.jar");
        Path b = jar("b.jar");
        List<String> options = List.of("-XX:+UseSerialGC");
        Path first = new WorkerCache(dir.resolve("aot"), List.of(a, b), options).file();
        assertEquals(first, new WorkerCache(dir.resolve("aot"), List.of(a, b), options).file());
        assertTrue(first.getFileName().toString().matches("worker-\\p{XDigit}{24}\\.aot"), first.toString());
        assertNotEquals(first, new WorkerCache(dir.resolve("aot"), List.of(b, a), options).file(), "the order");
        assertNotEquals(
                first,
                new WorkerCache(dir.resolve("aot"), List.of(a, b), List.of("-XX:+UseG1GC")).file(),
                "the JVM options");
        Files.setLastModifiedTime(b, FileTime.fromMillis(1_700_000_001_000L));
        assertEquals(first, new WorkerCache(dir.resolve("aot"), List.of(a, b), options).file(), "b touched, unchanged");
        Files.writeString(b, "NOT really a jar: its contents count"); // the same size
        Files.setLastModifiedTime(b, FileTime.fromMillis(1_700_000_000_000L)); // and the same time
        assertNotEquals(first, new WorkerCache(dir.resolve("aot"), List.of(a, b), options).file(), "b rebuilt");
    }

    @Test
    void a_class_path_with_a_folder_among_the_graders_entries_gets_no_cache() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertTrue(WorkerCache.forRuntime(List.of(jar("a.jar"), classes), List.of())
                .isEmpty());
        assertTrue(WorkerCache.forRuntime(List.of(), List.of()).isEmpty());
    }

    @Test
    void an_existing_cache_is_named_to_the_jvm_and_a_missing_one_is_trained_once() throws Exception {
        var cache = new WorkerCache(dir.resolve("aot"), List.of(jar("a.jar")), List.of());
        List<List<String>> trainings = new ArrayList<>();
        // A training run that makes no cache: a JVM that only prints its version.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> none = cache.options((extra, job) -> {
            trainings.add(extra);
            return List.of(java, "-version");
        });
        assertEquals(List.of(), none, "no cache yet: the test JVM runs without one");
        assertFalse(cache.trainAndWait((extra, job) -> List.of(java, "-version")), "that run made no cache");
        assertEquals(1, trainings.size(), "one training run per cache in a grader: " + trainings);
        assertTrue(trainings.getFirst().getFirst().startsWith("-XX:AOTCacheOutput=" + dir.resolve("aot")));
        try (var left = Files.list(dir.resolve("aot"))) {
            assertEquals(List.of(), left.toList(), "no lock, partial file or cache is left behind");
        }

        Files.writeString(cache.file(), "stands in for a trained cache");
        assertEquals(List.of("-XX:AOTCache=" + cache.file()), cache.options((extra, job) -> {
            throw new AssertionError("no training where the cache exists");
        }));
    }

    @Test
    void a_finished_training_run_becomes_the_cache_and_the_folder_keeps_the_caches_used_last() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("aot"));
        for (int i = 0; i < WorkerCache.KEPT + 2; i++) { // older builds' caches, the oldest first
            Path old = folder.resolve("worker-%024x.aot".formatted(i));
            Files.writeString(old, "an older cache");
            Files.setLastModifiedTime(old, FileTime.fromMillis(1_700_000_000_000L + i * 1000L));
        }
        var cache = new WorkerCache(folder, List.of(jar("a.jar")), List.of());
        // Stands in for the JVM: writes the cache file that -XX:AOTCacheOutput names, and the results' DONE line.
        assertTrue(cache.trainAndWait((extra, job) -> List.of(
                "sh",
                "-c",
                "printf cache > \"$1\" && printf 'DONE\\n' > \"$2\"",
                "sh",
                extra.getFirst().substring("-XX:AOTCacheOutput=".length()),
                job.getFirst())));
        assertEquals("cache", Files.readString(cache.file()));
        try (var left = Files.list(folder)) {
            List<String> names =
                    left.map(f -> f.getFileName().toString()).sorted().toList();
            assertEquals(WorkerCache.KEPT, names.size(), "the newest caches only, no lock or partial file: " + names);
            assertTrue(names.contains(cache.file().getFileName().toString()));
            assertFalse(names.contains("worker-%024x.aot".formatted(0)), "the oldest went: " + names);
            assertFalse(names.contains("worker-%024x.aot".formatted(2)), "the oldest went: " + names);
            assertTrue(names.contains("worker-%024x.aot".formatted(3)), names.toString());
        }
    }
}
