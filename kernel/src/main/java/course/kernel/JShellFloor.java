package course.kernel;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;

/**
 * JShell's own floor for a warm trivial cell, with no kernel around it: a JShell built as the course kernel builds
 * its own (local execution, the compiler options of {@code RJK_COMPILER_OPTIONS}, the cell class path of
 * {@link Launcher#CELL_CLASSPATH}), evaluating {@code System.out.println(1 + 1);} again and again. What
 * {@code ./course bench kernel} measures through the protocol, less this, is what the kernel and its messages add.
 *
 * <p>Arguments: {@code [CELLS [WARMUP]]} (30 and 20). Prints one line: the median, min and max in ms.
 */
public final class JShellFloor {
    static final String SNIPPET = "System.out.println(1 + 1);";

    private JShellFloor() {}

    public static void main(String[] args) {
        int cells = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        String[] options = Arrays.stream(System.getenv()
                        .getOrDefault("RJK_COMPILER_OPTIONS", "")
                        .strip()
                        .split("\\s+"))
                .filter(o -> !o.isEmpty())
                .toArray(String[]::new);
        PrintStream out = System.out;
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        List<Long> nanos = new ArrayList<>();
        try (JShell shell = Launcher.withCellClasspath(() -> {
            JShell built = JShell.builder()
                    .executionEngine("local")
                    .compilerOptions(options)
                    .out(nowhere)
                    .err(nowhere)
                    .build();
            built.eval("import java.util.*;"); // the first import reads the class path, as the kernel's do
            return built;
        })) {
            System.setOut(nowhere); // the snippet prints into this JVM's System.out
            for (int i = 0; i < warmup + cells; i++) {
                long start = System.nanoTime();
                List<SnippetEvent> events = shell.eval(SNIPPET);
                long took = System.nanoTime() - start;
                if (events.isEmpty()
                        || events.getFirst().status() != Snippet.Status.VALID
                        || events.getFirst().exception() != null) {
                    throw new IllegalStateException(SNIPPET + " did not run: " + events);
                }
                if (i >= warmup) {
                    nanos.add(took);
                }
            }
        } finally {
            System.setOut(out);
        }
        nanos.sort(null);
        long median = nanos.size() % 2 == 1
                ? nanos.get(nanos.size() / 2)
                : (nanos.get(nanos.size() / 2 - 1) + nanos.get(nanos.size() / 2)) / 2;
        out.printf(
                java.util.Locale.ROOT,
                "JShell alone (local execution, %s, the cell class path): %s median %.1f ms, min %.1f, max %.1f,"
                        + " over %d warm snippets after %d%n",
                String.join(" ", options),
                SNIPPET,
                median / 1e6,
                nanos.getFirst() / 1e6,
                nanos.getLast() / 1e6,
                cells,
                warmup);
    }
}
