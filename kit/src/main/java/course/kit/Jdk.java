package course.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The JDK the course runs on: exactly the release the build compiles for ({@code maven.compiler.release} in
 * the parent pom, 25). On another feature release most of the course runs, and {@link #check(int)} says which
 * notebooks and exercises need the course's release, and why ({@code course/kit/needs-jdk.txt}, which
 * {@code ./course} reads too).
 *
 * <pre>{@code
 * Jdk.check(Runtime.version().feature());
 * // ✔ Java 25: the release the course runs on
 * }</pre>
 */
public final class Jdk {
    private static final String BUILD = "/course/kit/build.properties";
    private static final String NEEDS = "/course/kit/needs-jdk.txt";

    /** One part of the course that runs on the course's release only: {@code what} (notebooks, exercises), and why. */
    public record Need(String what, String why) {}

    private Jdk() {}

    /** The JDK feature release the course runs on, as the build wrote it. */
    public static int release() {
        Properties p = new Properties();
        try (InputStream in = resource(BUILD)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Integer.parseInt(p.getProperty("release").strip());
    }

    /** What needs the course's release, in the order the course lists it. */
    public static List<Need> needs() {
        List<Need> needs = new ArrayList<>();
        try (var r = new BufferedReader(new InputStreamReader(resource(NEEDS), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                int eq = line.indexOf(" = ");
                if (line.isBlank() || line.startsWith("#") || eq < 0) continue;
                needs.add(new Need(
                        line.substring(0, eq).strip(), line.substring(eq + 3).strip()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(needs);
    }

    /**
     * What the course says of a JDK of this {@code feature} release: one line when it is the course's release,
     * else the release it needs and each part that needs it, with why.
     */
    public static String report(int feature) {
        int release = release();
        if (feature == release) {
            return Check.PASS + " Java " + feature + ": the release the course runs on";
        }
        var b = new StringBuilder(Check.WARN + " Java " + feature + ": the course runs on JDK " + release
                + ", exactly. On " + feature + " the other notebooks and exercises run; these need JDK " + release
                + ":");
        for (Need n : needs()) {
            b.append("\n  - ").append(n.what()).append(": ").append(n.why());
        }
        return b.append("\nInstall JDK ")
                .append(release)
                .append(" (Eclipse Temurin ")
                .append(release)
                .append(" from https://adoptium.net), set JAVA_HOME to it and run ./course setup again.")
                .toString();
    }

    /**
     * Prints {@link #report(int)}. Another feature release is no failure of the notebook that asks: the ⚠ lines
     * name what will not run on it, and the rest of the course does.
     */
    public static void check(int feature) {
        System.out.println(report(feature));
    }

    private static InputStream resource(String name) {
        InputStream in = Jdk.class.getResourceAsStream(name);
        if (in == null) throw new IllegalStateException("the kit has no " + name + ": rebuild it with ./course setup");
        return in;
    }
}
