package course.grader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The course's own tests and stubs, exactly as the course ships them.
 *
 * <p>The grader carries a SHA-256 manifest of every file under {@code exercises/NN-name/src/test/java} and
 * {@code src/main/java} ({@code course/grader/course-files.sha256}, committed with the course). A file is
 * used for grading only when its bytes match the manifest. Each file is looked for, in order, in the course
 * folder's own {@code exercises/} (a learner's working tree, untouched in the usual case), in the copy that
 * Maven built into the grader ({@code pristine/NN-name/...}), in the course folder named by
 * {@code COURSE_PRISTINE_HOME} if set, and in the history of the course's git repository. When none matches, the exercise is not graded: an edited test file is never run.
 */
final class Pristine {
    /** The manifest, on the grader's class path, in {@code sha256sum} format. */
    static final String MANIFEST = "/course/grader/course-files.sha256";
    /**
     * An environment variable naming a pristine copy of the course folder (for example the Docker image's
     * {@code /opt/vthreads-course}), searched after the grader's own copy.
     */
    static final String PRISTINE_HOME = "COURSE_PRISTINE_HOME";
    /** The most commits of a file's history that are searched for a pristine copy. */
    private static final int GIT_COMMITS = 200;

    private static volatile Path embedded;
    private static volatile Map<String, String> manifest;

    private Pristine() {}

    /** One kind of course file: the tests or the stubs. */
    enum Kind {
        TESTS("src/test/java"),
        STUBS("src/main/java");

        final String folder;

        Kind(String folder) {
            this.folder = folder;
        }
    }

    /**
     * Where the course's files of one exercise came from.
     *
     * @param restored    files (course-relative, for example {@code exercises/02-cafe/src/test/java/...}) whose
     *                    copy in the course folder differs from the course's, or is missing; a pristine copy
     *                    was used
     * @param unavailable files for which no copy matching the manifest was found
     */
    record Resolution(List<String> restored, List<String> unavailable) {
        boolean complete() {
            return unavailable.isEmpty();
        }
    }

    /** Every file of the manifest ({@code exercises/NN-name/src/...}) with its SHA-256, sorted by path. */
    static Map<String, String> manifest() {
        Map<String, String> m = manifest;
        if (m == null) {
            synchronized (Pristine.class) {
                if (manifest == null) {
                    manifest = readManifest();
                }
                m = manifest;
            }
        }
        return m;
    }

    private static Map<String, String> readManifest() {
        InputStream in = Pristine.class.getResourceAsStream(MANIFEST);
        if (in == null) {
            throw new IllegalStateException("the grader has no manifest of the course's tests (" + MANIFEST
                    + "): rebuild it with ./course setup --rebuild");
        }
        Map<String, String> m = new TreeMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int space = line.indexOf(' ');
                String path = line.substring(space + 1).strip();
                if (path.startsWith("*")) {
                    path = path.substring(1); // sha256sum's binary marker
                }
                if (path.startsWith("./")) {
                    path = path.substring(2);
                }
                m.put(path, line.substring(0, space).toLowerCase(java.util.Locale.ROOT));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Where the manifest is written, under the course folder ({@code ./course manifest}). */
    static final String MANIFEST_SOURCE = "grader/src/main/resources" + MANIFEST;

    /**
     * {@code java -cp … course.grader.Pristine ROOT}: the one check of a course folder against the manifest, for
     * {@code ./course} (tools/course_cli/autograder.py, {@code ./course bench mutation}). Prints one line
     * {@code exercise NN-name} per exercise the grader knows, then one line {@code differs PATH} per course file
     * under ROOT's {@code exercises/} that differs from the manifest, is missing, or is not in it.
     *
     * <p>{@code … Pristine --write ROOT} ({@code ./course manifest}) writes ROOT's manifest instead, from its
     * {@code exercises/}: the one writer of the file that this class checks, in {@code sha256sum}'s format.
     */
    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("--write")) {
            Path root = Path.of(args.length > 1 ? args[1] : ".");
            Files.writeString(root.resolve(MANIFEST_SOURCE), manifestText(root));
            System.out.println("wrote " + MANIFEST_SOURCE + ": " + onDisk(root).size() + " files");
            return;
        }
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        var out = new StringBuilder();
        exercises().forEach(e -> out.append("exercise ").append(e).append('\n'));
        differing(root).forEach(p -> out.append("differs ").append(p).append('\n'));
        System.out.print(out);
    }

    /**
     * The manifest of the course folder {@code root}: a line {@code SHA-256  PATH} per file
     * {@code exercises/NN-name/src/KIND/java/….java}, sorted by path, as {@code sha256sum} writes it.
     */
    static String manifestText(Path root) throws IOException {
        var out = new StringBuilder();
        onDisk(root)
                .forEach((path, hash) ->
                        out.append(hash).append("  ").append(path).append('\n'));
        return out.toString();
    }

    /** The {@code exercises/NN-name/src/KIND/java} files under {@code root}, with their SHA-256, sorted by path. */
    static Map<String, String> onDisk(Path root) throws IOException {
        Map<String, String> onDisk = new TreeMap<>();
        Path exercises = root.resolve("exercises");
        if (Files.isDirectory(exercises)) {
            try (var files = Files.walk(exercises)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String rel = root.relativize(f).toString().replace('\\', '/');
                    if (rel.matches("exercises/[^/]+/src/[^/]+/java/.+\\.java") && Files.isRegularFile(f)) {
                        onDisk.put(rel, sha256(Files.readAllBytes(f)));
                    }
                }
            }
        }
        return onDisk;
    }

    /** The files of the manifest, and the {@code exercises/NN-name/src/KIND/java} files under {@code root}, that differ. */
    static List<String> differing(Path root) throws IOException {
        Map<String, String> onDisk = onDisk(root);
        TreeSet<String> names = new TreeSet<>(manifest().keySet());
        names.addAll(onDisk.keySet());
        return names.stream()
                .filter(n -> !java.util.Objects.equals(manifest().get(n), onDisk.get(n)))
                .toList();
    }

    /** The names of the exercises ({@code NN-name}) that have tests in the manifest, sorted. */
    static List<String> exercises() {
        TreeSet<String> names = new TreeSet<>();
        for (String path : manifest().keySet()) {
            String[] parts = path.split("/");
            if (parts.length > 4 && parts[0].equals("exercises") && path.contains("/" + Kind.TESTS.folder + "/")) {
                names.add(parts[1]);
            }
        }
        return List.copyOf(names);
    }

    /** The files of one kind of {@code exercise}, relative to its {@code src/test/java} or {@code src/main/java}. */
    static List<String> files(String exercise, Kind kind) {
        String prefix = "exercises/" + exercise + "/" + kind.folder + "/";
        return manifest().keySet().stream()
                .filter(p -> p.startsWith(prefix))
                .map(p -> p.substring(prefix.length()))
                .toList();
    }

    /**
     * Writes the course's files of one kind of {@code exercise} into {@code target}, each from the first
     * place whose copy matches the manifest: {@code own} (the course folder's copy, or {@code null} for
     * {@code root/exercises/NN-name/...}), the copy built into the grader, then git's history of {@code root}.
     *
     * @return which files were restored from elsewhere than {@code own}, and which were found nowhere
     */
    static Resolution copy(Path root, String exercise, Kind kind, Path own, Path target) throws IOException {
        Path mine =
                own != null ? own : root.resolve("exercises").resolve(exercise).resolve(kind.folder);
        String base = "exercises/" + exercise + "/" + kind.folder + "/";
        List<String> restored = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        Git git = null;
        for (String rel : files(exercise, kind)) {
            String want = manifest().get(base + rel);
            byte[] bytes = readIfMatches(mine.resolve(rel), want);
            if (bytes == null) {
                bytes = readIfMatches(
                        embedded().resolve(exercise).resolve(kind.folder).resolve(rel), want);
                String elsewhere = System.getenv(PRISTINE_HOME);
                if (bytes == null && elsewhere != null && !elsewhere.isBlank()) {
                    bytes = readIfMatches(Path.of(elsewhere).resolve(base + rel), want);
                }
                if (bytes == null) {
                    git = git != null ? git : new Git(root);
                    bytes = git.find(root.resolve(base + rel), want).orElse(null);
                }
                (bytes == null ? unavailable : restored).add(base + rel);
            }
            if (bytes != null) {
                Path out = target.resolve(rel);
                Files.createDirectories(out.getParent());
                Files.write(out, bytes);
            }
        }
        return new Resolution(restored, unavailable);
    }

    /**
     * The SHA-256 of {@code bytes}, in lower-case hex, with CRLF line ends read as LF: a checkout on Windows
     * (git's autocrlf) holds the same tests as the manifest, which is made from LF files with sha256sum.
     */
    static String sha256(byte[] bytes) {
        java.io.ByteArrayOutputStream lf = new java.io.ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            if (!(bytes[i] == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n')) {
                lf.write(bytes[i]);
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(lf.toByteArray()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readIfMatches(Path file, String sha256) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        byte[] bytes = Files.readAllBytes(file);
        return sha256(bytes).equals(sha256) ? bytes : null;
    }

    /** The {@code pristine} folder inside the grader's jar or classes folder (the copy Maven built in). */
    static Path embedded() {
        Path r = embedded;
        if (r == null) {
            synchronized (Pristine.class) {
                if (embedded == null) {
                    embedded = locate();
                }
                r = embedded;
            }
        }
        return r;
    }

    private static Path locate() {
        try {
            Path home = Classpaths.locationOf(Pristine.class);
            if (Files.isDirectory(home)) {
                return home.resolve("pristine");
            }
            FileSystem jar = FileSystems.newFileSystem(home);
            return jar.getPath("/pristine");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the grader's copy of the course's tests", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Looks for a file's pristine version in the history of the git repository around the course folder. */
    private static final class Git {
        private final Path top;

        Git(Path root) {
            String out = run(root, List.of("git", "rev-parse", "--show-toplevel"));
            this.top = out == null || out.isBlank() ? null : Path.of(out.strip());
        }

        Optional<byte[]> find(Path file, String sha256) {
            if (top == null) {
                return Optional.empty();
            }
            Path abs = file.toAbsolutePath().normalize();
            Path real;
            try {
                real = top.toRealPath();
                Path parent = abs.getParent();
                abs = (Files.isDirectory(parent) ? parent.toRealPath() : parent).resolve(abs.getFileName());
            } catch (IOException e) {
                return Optional.empty();
            }
            if (!abs.startsWith(real)) {
                return Optional.empty();
            }
            String rel = real.relativize(abs).toString().replace('\\', '/');
            String commits = run(
                    top, List.of("git", "log", "--all", "--format=%H", "-n", Integer.toString(GIT_COMMITS), "--", rel));
            if (commits == null) {
                return Optional.empty();
            }
            for (String c : commits.lines().filter(l -> !l.isBlank()).toList()) {
                byte[] bytes = bytes(top, List.of("git", "show", c.strip() + ":" + rel));
                if (bytes != null && sha256(bytes).equals(sha256)) {
                    return Optional.of(bytes);
                }
            }
            return Optional.empty();
        }

        private static String run(Path dir, List<String> cmd) {
            byte[] b = bytes(dir, cmd);
            return b == null ? null : new String(b, StandardCharsets.UTF_8);
        }

        private static byte[] bytes(Path dir, List<String> cmd) {
            try {
                Process p = new ProcessBuilder(cmd)
                        .directory(dir.toFile())
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                p.getOutputStream().close();
                byte[] out = p.getInputStream().readAllBytes();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return null;
                }
                return p.exitValue() == 0 ? out : null;
            } catch (IOException e) {
                return null; // no git: no history to look in
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }
}
