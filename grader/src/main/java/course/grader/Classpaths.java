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
            "course.kit.Probe");
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

    /** The jars and folders to compile exercises and tests against. */
    static List<Path> compile() {
        return locate(COMPILE);
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
