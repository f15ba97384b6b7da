package course.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs a kit experiment in a fresh, plain {@code java} process, for comparisons the notebook's own JVM
 * cannot make: "does the notebook bend the numbers?", or a virtual-thread scheduler with other settings
 * ({@code -Djdk.virtualThreadScheduler.parallelism=1}).
 *
 * <p>The child runs {@code owner.method(args…)}, a public static method whose parameters are strings or
 * primitives, and sends its return value back as JSON (Jackson), which is read into {@code resultType}
 * (records work). The child uses this JVM's {@code java} and classpath.
 *
 * <pre>{@code
 * Cafe.Rounds r = ChildJvm.call(List.of("-Xmx1g"), Cafe.Rounds.class, Cafe.class, "childRounds", "10000", "1000", "1", "3");
 * }</pre>
 */
public final class ChildJvm {
    static final String MARKER = "@@course-child-result@@";
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private ChildJvm() {}

    /**
     * Calls {@code owner.method(args)} in a child JVM started with {@code jvmOptions}, and returns its result.
     *
     * @throws IllegalStateException if the child fails; the message carries the child's output
     */
    public static <T> T call(
            List<String> jvmOptions, Class<T> resultType, Class<?> owner, String method, String... args)
            throws InterruptedException {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(method, "method");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-Djava.awt.headless=true",
                "-cp",
                System.getProperty("java.class.path"),
                ChildJvm.class.getName(),
                owner.getName(),
                method));
        cmd.addAll(Arrays.asList(args));
        // The child's output goes to a file, not a pipe: reading a pipe cannot be interrupted, so a caller
        // blocked on it would ignore the notebook's stop button until the child ended on its own.
        Path output;
        try {
            output = Files.createTempFile("course-child-", ".out");
        } catch (IOException e) {
            throw new IllegalStateException("could not create the child JVM's output file: " + e.getMessage(), e);
        }
        Process p = null;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            int rc = p.waitFor();
            String text = Files.readString(output, StandardCharsets.UTF_8);
            int at = text.lastIndexOf(MARKER);
            if (rc != 0 || at < 0) {
                throw new IllegalStateException("the child JVM (" + owner.getSimpleName() + "." + method
                        + ") exited with " + rc + ":\n" + text.strip());
            }
            JsonNode node = JSON.readTree(text.substring(at + MARKER.length()).strip());
            return JSON.treeToValue(node, resultType);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            throw e;
        } catch (IOException e) {
            if (p != null) p.destroyForcibly();
            throw new IllegalStateException(
                    (p == null ? "could not start a child JVM: " : "could not read the child JVM's result: ")
                            + e.getMessage(),
                    e);
        } finally {
            try {
                Files.deleteIfExists(output);
            } catch (IOException ignored) {
                // a temporary file: the OS cleans it up
            }
        }
    }

    /** The child's entry point: {@code ChildJvm OWNER METHOD [ARGS…]}. Prints the result as JSON after a marker. */
    public static void main(String[] argv) throws Exception {
        if (argv.length < 2) {
            System.err.println("usage: ChildJvm OWNER_CLASS STATIC_METHOD [ARGS...]");
            System.exit(2);
        }
        Class<?> owner = Class.forName(argv[0]);
        String[] args = Arrays.copyOfRange(argv, 2, argv.length);
        Method m = Arrays.stream(owner.getMethods())
                .filter(x -> x.getName().equals(argv[1])
                        && Modifier.isStatic(x.getModifiers())
                        && x.getParameterCount() == args.length)
                .findFirst()
                .orElseThrow(() ->
                        new NoSuchMethodException(argv[0] + "." + argv[1] + " with " + args.length + " parameters"));
        Object[] values = new Object[args.length];
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < args.length; i++) values[i] = convert(args[i], types[i]);
        Object result = m.invoke(null, values);
        System.out.println();
        System.out.println(MARKER + JSON.writeValueAsString(result));
        System.out.flush();
        System.exit(0); // the experiment may leave daemon threads behind: the child's answer is what matters
    }

    private static Object convert(String s, Class<?> t) {
        if (t == String.class) return s;
        if (t == int.class || t == Integer.class) return Integer.parseInt(s);
        if (t == long.class || t == Long.class) return Long.parseLong(s);
        if (t == double.class || t == Double.class) return Double.parseDouble(s);
        if (t == boolean.class || t == Boolean.class) return Boolean.parseBoolean(s);
        if (t == java.time.Duration.class) return java.time.Duration.parse(s);
        throw new IllegalArgumentException("a child JVM method cannot take a " + t.getName());
    }
}
