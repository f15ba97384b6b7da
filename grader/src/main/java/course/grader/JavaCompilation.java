package course.grader;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles a folder of Java sources in-process with {@code javax.tools}, collecting errors as short lines. */
final class JavaCompilation {
    private static final int MAX_ERRORS = 5;

    private JavaCompilation() {}

    /**
     * Compiles every {@code .java} file under {@code sourceRoot} into {@code out}.
     *
     * @param sourceRoot the folder of sources
     * @param classpath  what the sources compile against, besides the JDK
     * @param out        where the classes go (created if missing)
     * @param display    turns a source file into the name shown in an error (for example a path relative to
     *                   the course folder)
     * @return the errors, as {@code file:line: message} lines; empty when the compilation succeeded
     */
    static List<String> compile(Path sourceRoot, List<Path> classpath, Path out, Function<Path, String> display)
            throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("the grader needs a JDK (javax.tools), not a bare runtime");
        }
        List<Path> sources;
        try (Stream<Path> s = Files.walk(sourceRoot)) {
            sources = s.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        }
        if (sources.isEmpty()) {
            return List.of(display.apply(sourceRoot) + ": no Java sources found");
        }
        Files.createDirectories(out);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ENGLISH, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "--release",
                    Integer.toString(Runtime.version().feature()),
                    "--enable-preview", // exercise 07 uses StructuredTaskScope, a preview API in JDK 25
                    "-proc:none",
                    "-g",
                    "-parameters", // a property's failing input names its parameters (brew = PT0.0019S)
                    "-nowarn",
                    "-encoding",
                    "UTF-8",
                    "-implicit:class",
                    "-classpath",
                    classpath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)),
                    "-d",
                    out.toString());
            StringWriter noise = new StringWriter();
            boolean ok = javac.getTask(
                            noise, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources))
                    .call();
            List<String> errors = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) {
                    continue;
                }
                if (errors.size() == MAX_ERRORS) {
                    errors.add("… and more errors");
                    break;
                }
                String where = d.getSource() == null
                        ? ""
                        : display.apply(Path.of(d.getSource().toUri()))
                                + (d.getLineNumber() > 0 ? ":" + d.getLineNumber() : "") + ": ";
                errors.add(where + "error: "
                        + d.getMessage(Locale.ENGLISH).lines().findFirst().orElse(""));
            }
            if (!ok && errors.isEmpty()) {
                errors.add("the compiler failed: " + noise.toString().strip());
            }
            return errors;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
