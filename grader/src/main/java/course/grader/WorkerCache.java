package course.grader;

import course.base.CourseRoot;
import course.base.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * An ahead-of-time cache (JEP 483: {@code -XX:AOTCache}) for the forked test JVMs: the JUnit engine's, the kit's
 * and the grader's classes, loaded and linked once, so that each exercise's test JVM starts on less CPU. This is
 * what makes a grading's test JVM start faster than a plain JVM on the same jars; what it tests is the same.
 *
 * <p>A cache is for one list of jars, one set of JVM options and one JDK: its file name is a hash of those and of
 * each jar's contents, so a rebuilt jar or another JDK gets a cache of its own. The jars come first on every test
 * JVM's class path; the exercise's folders follow them, as a cache allows. A class path with a folder among the
 * grader's own entries (the grader's unit tests run from {@code target/classes}) gets no cache.
 *
 * <p>The first grading that finds no cache trains one in the background: one JVM runs {@link WarmUp}'s tests on
 * the jars alone with {@code -XX:AOTCacheOutput}, into a temporary file that is renamed when it is complete.
 * Test JVMs started meanwhile run without the cache. The cache lives in the course folder's {@code target/worker-aot/};
 * where that cannot be written, or with {@code COURSE_AOT=off}, there is none.
 */
final class WorkerCache {
    /** The folder, in the course folder's {@code target/}, that holds the caches. */
    static final String FOLDER = "worker-aot";
    /** How long a training run may take before it is stopped (it takes 2-4 s). */
    private static final Duration TRAINING_LIMIT = Duration.ofSeconds(120);
    /** A lock file older than this was left by a training run that did not finish. */
    private static final Duration STALE_LOCK = Duration.ofSeconds(300);
    /**
     * How many caches a folder keeps, those used last (each is about 20 MB): one per class path that grades in this
     * course folder (./course grade, the kernel, the grader's own integration tests), and room for a rebuild.
     */
    static final int KEPT = 8;

    private static final Map<Path, Training> TRAININGS = new ConcurrentHashMap<>();

    private final Path folder;
    private final List<Path> jars;
    private final List<String> jvmOptions;

    /**
     * @param folder     where the cache files go
     * @param jars       the jars every test JVM's class path starts with
     * @param jvmOptions the test JVMs' options, which the training run uses too
     */
    WorkerCache(Path folder, List<Path> jars, List<String> jvmOptions) {
        this.folder = folder;
        this.jars = List.copyOf(jars);
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * The cache for test JVMs whose class path starts with {@code runtime} (the grader's run-time class path), in the
     * course folder's {@code target/worker-aot/}; empty where there can be none.
     */
    static Optional<WorkerCache> forRuntime(List<Path> runtime, List<String> jvmOptions) {
        if (disabled() || runtime.isEmpty() || !runtime.stream().allMatch(WorkerCache::isJar)) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new WorkerCache(CourseRoot.find().resolve("target").resolve(FOLDER), runtime, jvmOptions));
        } catch (RuntimeException e) {
            return Optional.empty(); // no course folder here (a Gradescope autograder's own layout): no cache
        }
    }

    static boolean disabled() {
        String v = System.getenv("COURSE_AOT");
        return v != null && List.of("off", "0", "no", "false").contains(v.toLowerCase(java.util.Locale.ROOT));
    }

    private static boolean isJar(Path p) {
        return p.getFileName() != null && p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p);
    }

    /** The cache's file: {@code worker-HASH.aot}, the hash of the JDK, the options and each jar's path and contents. */
    Path file() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            List<String> facts = new ArrayList<>(List.of(
                    System.getProperty("java.home"),
                    System.getProperty("java.vm.version"),
                    String.join(" ", jvmOptions)));
            for (Path jar : jars) {
                facts.add(jar.toAbsolutePath() + "\t" + contentHash(jar));
            }
            sha.update(String.join("\n", facts).getBytes(StandardCharsets.UTF_8));
            return folder.resolve("worker-" + HexFormat.of().formatHex(sha.digest(), 0, 12) + ".aot");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A jar's SHA-256 (the test JVMs' jars are 1.7 MB in all). The cache's name must change with the contents: the JVM
     * does not check them. In a trial with Temurin 25.0.3, a jar of the cache's class path was changed in place (its
     * size and time changed), and the JVM still loaded that jar's classes from the cache, without a warning.
     */
    private static String contentHash(Path jar) throws IOException {
        try (var in = Files.newInputStream(jar)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The options that make a test JVM use the cache: {@code -XX:AOTCache=FILE} once the cache exists; none before
     * (and then a training run starts, once, in the background).
     *
     * @param trainingCommand builds the training JVM's command from its extra options and its job
     */
    List<String> options(BiFunction<List<String>, List<String>, List<String>> trainingCommand) {
        Path file;
        try {
            file = file();
        } catch (UncheckedIOException e) {
            return List.of(); // a jar went away: the test JVM will say so
        }
        if (Files.isRegularFile(file)) {
            markUsed(file);
            return List.of("-XX:AOTCache=" + file);
        }
        training(file, trainingCommand);
        return List.of();
    }

    /** The training run of {@code file} in this grader: started once, the first time it is asked for. */
    private static Training training(Path file, BiFunction<List<String>, List<String>, List<String>> trainingCommand) {
        return TRAININGS.computeIfAbsent(file, f -> Training.start(f, trainingCommand));
    }

    /** Sets a cache's time to now, at most once an hour: the folder keeps the caches used last. */
    private static void markUsed(Path file) {
        try {
            Instant now = Instant.now();
            if (Files.getLastModifiedTime(file).toInstant().isBefore(now.minus(Duration.ofHours(1)))) {
                Files.setLastModifiedTime(file, FileTime.from(now));
            }
        } catch (IOException | RuntimeException ignored) {
            // a cache another grader just replaced: its time does not matter
        }
    }

    /** Trains the cache now, if it does not exist, and waits for it: true if it exists afterwards (for tests). */
    boolean trainAndWait(BiFunction<List<String>, List<String>, List<String>> trainingCommand) {
        Path file = file();
        if (!Files.isRegularFile(file)) {
            training(file, trainingCommand).await(TRAINING_LIMIT.toMillis());
        }
        return Files.isRegularFile(file);
    }

    /** One training run: its process, the file it writes and the lock that keeps other graders from training too. */
    private static final class Training {
        private final Path file;
        private final Path partial;
        private final Path lock;
        private final Process process;
        private final Path results;
        private boolean ended;

        private Training(Path file, Path partial, Path lock, Process process, Path results) {
            this.file = file;
            this.partial = partial;
            this.lock = lock;
            this.process = process;
            this.results = results;
        }

        /** Starts a training run, or returns a finished one where another grader is training or none can. */
        static Training start(Path file, BiFunction<List<String>, List<String>, List<String>> trainingCommand) {
            Path lock = file.resolveSibling(file.getFileName() + ".lock");
            boolean locked = false;
            Process p = null;
            try {
                Files.createDirectories(file.getParent());
                locked = takeLock(lock);
                if (!locked) {
                    return new Training(file, null, null, null, null); // another grader is training it
                }
                Path partial = file.resolveSibling(
                        file.getFileName() + "." + ProcessHandle.current().pid() + ".part");
                Path results = Files.createTempFile("course-grader-warmup-", ".txt");
                List<String> job = List.of(
                        results.toString(),
                        Integer.toString(ForkedTests.TEST_TIMEOUT_S),
                        "classes",
                        WarmUp.class.getName());
                p = new ProcessBuilder(trainingCommand.apply(List.of("-XX:AOTCacheOutput=" + partial), job))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                p.getOutputStream().close();
                Training t = new Training(file, partial, lock, p, results);
                // A grader that exits first (./course grade) lets the run finish and keeps its cache.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> t.await(30_000), "worker-aot-training-exit"));
                Thread.ofVirtual().name("worker-aot-training").start(() -> t.await(TRAINING_LIMIT.toMillis()));
                return t;
            } catch (IOException | RuntimeException e) { // the JVM is shutting down, or the folder is not writable
                if (p != null) {
                    p.destroyForcibly();
                }
                if (locked) {
                    FileTrees.deleteQuietly(lock);
                }
                return new Training(file, null, null, null, null);
            }
        }

        private static boolean takeLock(Path lock) throws IOException {
            try {
                Files.createFile(lock);
                return true;
            } catch (FileAlreadyExistsException e) {
                FileTime made = Files.getLastModifiedTime(lock);
                if (made.toInstant().isAfter(Instant.now().minus(STALE_LOCK))) {
                    return false;
                }
                Files.setLastModifiedTime(lock, FileTime.from(Instant.now()));
                return true;
            }
        }

        /** Waits for the run (at most {@code millis}), then, if it ended, keeps its cache if it made one. */
        void await(long millis) {
            if (process == null) {
                return;
            }
            try {
                if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
                    if (millis < TRAINING_LIMIT.toMillis()) {
                        return; // still running: the training thread, which waits longer, finishes it
                    }
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            finish();
        }

        private synchronized void finish() {
            if (ended) {
                return;
            }
            ended = true;
            try {
                boolean trained = process.exitValue() == 0
                        && Files.isRegularFile(partial)
                        && Files.readString(results).contains(Wire.DONE);
                if (trained) {
                    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    keepNewest(file.getParent(), KEPT);
                }
            } catch (IOException | RuntimeException e) {
                // no cache: the test JVMs run without one
            }
            FileTrees.deleteQuietly(partial);
            FileTrees.deleteQuietly(results);
            FileTrees.deleteQuietly(lock);
        }

        /** Deletes all but the {@code kept} caches used last (older builds' jars); a JVM that maps one keeps it. */
        private static void keepNewest(Path folder, int kept) throws IOException {
            List<Path> caches;
            try (var files = Files.list(folder)) {
                caches = files.filter(f -> f.getFileName().toString().matches("worker-\\p{XDigit}+\\.aot"))
                        .sorted(Comparator.comparing((Path f) -> {
                                    try {
                                        return Files.getLastModifiedTime(f);
                                    } catch (IOException e) {
                                        return FileTime.fromMillis(0);
                                    }
                                })
                                .reversed())
                        .toList();
            }
            caches.stream().skip(kept).forEach(FileTrees::deleteQuietly);
        }
    }
}
