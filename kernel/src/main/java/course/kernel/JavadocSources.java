package course.kernel;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where JShell reads Javadoc from: the JDK's {@code lib/src.zip}, and also the course's own sources, so that
 * Shift+Tab on {@code Check.timing} or {@code Band} shows the kit's Javadoc as it shows the JDK's.
 *
 * <p>JShell reads Javadoc only from the JDK's {@code src.zip}, and has no API to add a source folder. Its
 * implementation ({@code jdk.jshell.SourceCodeAnalysisImpl}, JDK 25) takes the list from a private static field,
 * {@code availableSourcesOverride}, when it is set (the JDK's own tests set it), once per JShell, at its first
 * documentation request. {@link #install} sets it to what JShell would find itself (the module folders of
 * {@code src.zip}) plus {@code $COURSE_HOME/base/src/main/java}, {@code kit/src/main/java} and {@code grader/src/main/java}.
 * The field's package is opened to this module through the {@code -javaagent}'s {@code Instrumentation} (no JVM
 * flag). Where any of this fails (another JDK, no agent) the kernel logs why and JShell keeps its own list: the
 * JDK's Javadoc still shows, the course's does not.
 */
final class JavadocSources {

    private static final Logger LOG = Logger.getLogger(JavadocSources.class.getSimpleName());
    private static final String IMPL = "jdk.jshell.SourceCodeAnalysisImpl";
    private static final String FIELD = "availableSourcesOverride";

    private static volatile boolean installed;
    private static List<Path> roots;

    private JavadocSources() {}

    /** Sets JShell's source list once, before the first documentation request; later calls do nothing. */
    static synchronized void install() {
        if (installed) return;
        installed = true;
        List<Path> course = courseSourceRoots(System.getenv("COURSE_HOME"));
        if (course.isEmpty()) {
            return; // nothing to add: JShell's own list is the same
        }
        try {
            List<Path> all = roots();
            Class<?> impl = Class.forName(IMPL);
            StopAgent.openPackage(impl.getModule(), impl.getPackageName(), JavadocSources.class.getModule());
            Field f = impl.getDeclaredField(FIELD);
            f.setAccessible(true);
            f.set(null, all);
            LOG.info("JShell reads Javadoc from " + all.size() + " source roots, the course's " + course);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.INFO, "the course's Javadoc is not available to Shift+Tab (JShell keeps its own sources)", e);
        }
    }

    /** The JDK's source roots ({@link #jdkSourceRoots}) and the course's, computed once. */
    static synchronized List<Path> roots() {
        if (roots == null) {
            List<Path> all = new ArrayList<>();
            try {
                all.addAll(jdkSourceRoots());
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.INFO, "cannot read the JDK's src.zip", e);
            }
            all.addAll(courseSourceRoots(System.getenv("COURSE_HOME")));
            roots = List.copyOf(all);
        }
        return roots;
    }

    /** The course's source folders under {@code courseHome} that exist: the kit's and the grader's. */
    static List<Path> courseSourceRoots(String courseHome) {
        if (courseHome == null || courseHome.isBlank()) return List.of();
        List<Path> roots = new ArrayList<>();
        for (String module : List.of("base", "kit", "grader")) {
            Path p = Path.of(courseHome, module, "src", "main", "java");
            if (Files.isDirectory(p)) roots.add(p);
        }
        return roots;
    }

    /**
     * What JShell itself reads the JDK's Javadoc from: {@code lib/src.zip} (or {@code ../src.zip}) of this JDK, as
     * the folders of its modules; empty without one. The zip stays open for the life of the kernel, as JShell's does.
     */
    static List<Path> jdkSourceRoots() throws IOException {
        Path home = Path.of(System.getProperty("java.home"));
        Path zip = home.resolve("lib").resolve("src.zip");
        if (!Files.isReadable(zip) && home.getParent() != null)
            zip = home.getParent().resolve("src.zip");
        if (!Files.isReadable(zip)) return List.of();
        FileSystem fs = FileSystems.newFileSystem(zip, Map.of());
        Path root = fs.getRootDirectories().iterator().next();
        if (Files.exists(root.resolve("java/lang/Object.java"))) {
            fs.close();
            return List.of(zip); // not modular: the zip itself is the source root
        }
        List<Path> modules = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
            for (Path p : ds) {
                if (Files.isDirectory(p)) modules.add(p);
            }
        }
        return modules;
    }
}
