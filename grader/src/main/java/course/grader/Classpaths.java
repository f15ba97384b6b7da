package course.grader;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The class paths the grader compiles and runs exercises with, found from the classes it was itself loaded
 * with: the same jars in {@code ./course grade} (grader/target/lib) and in a notebook kernel.
 */
final class Classpaths {
    /** What the exercises and their tests compile against, besides the JDK. */
    private static final List<String> COMPILE = List.of(
            "org.junit.jupiter.api.Test",
            "org.junit.platform.commons.annotation.Testable",
            "org.opentest4j.AssertionFailedError",
            "org.apiguardian.api.API",
            "net.jqwik.api.Property",
            "course.base.probe.Probe");
    /** What a forked test JVM needs on top: the engine, the launcher and the grader's worker. */
    private static final List<String> RUNTIME = List.of(
            "org.junit.jupiter.engine.JupiterTestEngine",
            "net.jqwik.engine.JqwikTestEngine",
            "org.junit.platform.engine.TestEngine",
            "org.junit.platform.launcher.core.LauncherFactory",
            "course.grader.TestWorker");

    private Classpaths() {}

    /** The jar or folder that {@code type} was loaded from. */
    static Path locationOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * The jars and folders to compile exercises and tests against: the trainer's hidden tests may also use
     * Lincheck ({@link #scheduling()}).
     */
    static List<Path> compile() {
        List<Path> all = new ArrayList<>(locate(COMPILE));
        all.addAll(scheduling());
        return List.copyOf(all);
    }

    /**
     * Lincheck and the jars it needs, which the build copies to {@code target/scheduling-lib} beside the grader's
     * classes or jar: the trainer's hidden tests that explore a race's interleavings run with them. Empty where
     * the build made none (a notebook kernel's copy of the grader, which grades with the learner's tests only).
     */
    static List<Path> scheduling() {
        try {
            Path dir = locationOf(Classpaths.class).getParent().resolve("scheduling-lib");
            if (!java.nio.file.Files.isDirectory(dir)) {
                return List.of();
            }
            try (var jars = java.nio.file.Files.list(dir)) {
                return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
            }
        } catch (URISyntaxException | java.io.IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The jars and folders a forked test JVM runs with (plus the compiled exercise and tests). */
    static List<Path> runtime() {
        List<String> all = new ArrayList<>(COMPILE);
        all.addAll(RUNTIME);
        return locate(all);
    }

    private static List<Path> locate(List<String> classNames) {
        Set<Path> paths = new LinkedHashSet<>();
        ClassLoader loader = Classpaths.class.getClassLoader();
        for (String name : classNames) {
            try {
                paths.add(locationOf(Class.forName(name, false, loader)));
            } catch (ClassNotFoundException e) {
                if (!name.startsWith("org.apiguardian")) { // annotations only: optional
                    throw new IllegalStateException(
                            "the grader's class path lacks " + name
                                    + ": run ./course setup (it copies grader/target/lib)",
                            e);
                }
            } catch (URISyntaxException | RuntimeException e) {
                throw new IllegalStateException("cannot locate the jar of " + name, e);
            }
        }
        return List.copyOf(paths);
    }
}
