package course.kernel;

import course.base.CourseRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.Snippet;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.java.CompilerException;
import org.rapaio.jupyter.kernel.core.magic.MagicEngine;
import org.rapaio.jupyter.kernel.core.magic.MagicEvalException;
import org.rapaio.jupyter.kernel.core.magic.MagicHandler;
import org.rapaio.jupyter.kernel.core.magic.MagicSnippet;
import org.rapaio.jupyter.kernel.core.magic.SnippetMagicHandler;

/**
 * {@code %exercise 02-cafe}: loads your exercise's classes, as they are in {@code exercises/02-cafe/src/main/java}
 * now, into the notebook, so that the cells after it call your {@code Cafe.serve} by name.
 *
 * <p>Each source file goes to JShell with its {@code package} line blanked out (JShell has no packages; the
 * line numbers stay those of your file). Running the magic again after an edit replaces the classes, and the
 * cells that use them see the new code. Files go in an order where a file comes after the files whose classes
 * it names, and JShell accepts a forward reference anyway, so the order is a courtesy, not a rule.
 *
 * <p>The exercises are found in {@code $COURSE_EXERCISES_DIR} if set, else in {@code exercises/} of the course
 * folder, found as the grader finds it ({@link CourseRoot}: the nearest course folder above the notebook, then
 * {@code course.home}, then {@code $COURSE_HOME}, which the kernelspec sets).
 */
final class ExerciseMagic extends MagicHandler {
    private static final Logger LOG = Logger.getLogger(ExerciseMagic.class.getSimpleName());
    static final String PREFIX = "%exercise";
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+[\\w.]+\\s*;");
    private static final Pattern TYPE = Pattern.compile(
            "(?m)^\\s*(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+)*" + "(?:class|record|enum|interface)\\s+(\\w+)");
    private static final Pattern NAME = Pattern.compile("\\d\\d-[a-z0-9-]+");

    /** Adds the magic to rapaio's list of handlers (a static list in rapaio 3.0.1), ahead of its own. */
    @SuppressWarnings("unchecked")
    static void install() {
        List<MagicHandler> handlers = RapaioInternals.field(null, MagicEngine.class, "magicHandlers", List.class);
        synchronized (handlers) {
            if (handlers.stream().noneMatch(h -> h instanceof ExerciseMagic)) handlers.addFirst(new ExerciseMagic());
        }
    }

    @Override
    public String name() {
        return "Exercise";
    }

    @Override
    public List<String> helpMessage() {
        return List.of(
                "Loads your exercise's classes (exercises/NN-name/src/main/java) into the notebook,",
                "so that later cells call them by name. Run it again after you edit them.");
    }

    @Override
    public List<SnippetMagicHandler> snippetMagicHandlers() {
        return List.of(SnippetMagicHandler.lineMagic()
                .syntaxMatcher(PREFIX + " .*")
                .syntaxHelp(List.of(PREFIX + " NN-name"))
                .syntaxPrefix(PREFIX + " ")
                .documentation(helpMessage())
                .canHandlePredicate(this::canHandleSnippet)
                .evalFunction(this::load)
                .build());
    }

    @Override
    public boolean canHandleSnippet(MagicSnippet snippet) {
        return snippet.isLineMagic()
                && snippet.lines().size() == 1
                && snippet.line(0).code().trim().startsWith(PREFIX + " ");
    }

    private Object load(RapaioKernel kernel, MagicSnippet snippet) throws MagicEvalException {
        String name = snippet.line(0).code().trim().substring(PREFIX.length()).trim();
        if (!NAME.matcher(name).matches()) {
            throw new MagicEvalException(
                    snippet, "%exercise takes an exercise's folder name, such as 02-cafe, not '" + name + "'");
        }
        Path dir = exercisesDir().resolve(name).resolve("src/main/java");
        Map<String, String> sources;
        try {
            sources = sources(dir);
        } catch (IOException e) {
            throw new MagicEvalException(snippet, "cannot read " + dir + ": " + e.getMessage());
        }
        if (sources.isEmpty()) {
            throw new MagicEvalException(snippet, "no exercise " + name + ": " + dir + " holds no .java file");
        }
        // Several passes: a file that names a class of a file not yet loaded fails, and is tried again after it.
        var loaded = new ArrayList<String>();
        var pending = new LinkedHashMap<>(sources);
        var errors = new LinkedHashMap<String, String>();
        while (!pending.isEmpty()) {
            errors.clear();
            int before = pending.size();
            for (var e : List.copyOf(pending.entrySet())) {
                try {
                    kernel.javaEngine().eval(kernel.executionContext(), e.getValue());
                    loaded.add(e.getKey());
                    pending.remove(e.getKey());
                } catch (Exception ex) {
                    errors.put(e.getKey(), explain(kernel, ex, e.getValue()));
                }
            }
            if (pending.size() == before) break; // no progress in a whole pass
        }
        if (!pending.isEmpty()) {
            var msg = new StringBuilder("your exercise " + name + " does not compile:");
            errors.forEach(
                    (file, why) -> msg.append("\n  ").append(file).append(": ").append(why));
            throw new MagicEvalException(snippet, msg.toString());
        }
        LOG.info("loaded " + loaded + " from " + dir);
        // the folder it read, as named: exercises/ for the learner, solutions/ when COURSE_EXERCISES_DIR points
        // there (./course book runs the "Your turn" cells with the reference solutions)
        String folder = String.valueOf(exercisesDir().getFileName());
        boolean solution = folder.equals("solutions");
        return "✎ loaded " + (solution ? "the reference solution's " : "your ") + String.join(", ", loaded) + " from "
                + folder + "/" + name + (solution ? "" : " (edit them, then run this cell again)");
    }

    /** The compiler's first messages for a snippet that did not compile, with the line in the learner's file. */
    private static String explain(RapaioKernel kernel, Exception ex, String file) {
        if (ex instanceof CompilerException ce
                && ce.badSnippet() != null
                && ce.badSnippet().snippet() != null) {
            Snippet sn = ce.badSnippet().snippet();
            int offset = Math.max(0, file.indexOf(sn.source()));
            List<String> diags = kernel.javaEngine()
                    .getShell()
                    .diagnostics(sn)
                    .filter(Diag::isError)
                    .limit(3)
                    .map(d -> "line "
                            + (1
                                    + file.substring(
                                                    0,
                                                    Math.min(
                                                            file.length(),
                                                            offset + (int) Math.max(0, d.getStartPosition())))
                                            .chars()
                                            .filter(c -> c == '\n')
                                            .count())
                            + ": " + d.getMessage(Locale.ROOT))
                    .toList();
            if (!diags.isEmpty()) return String.join("; ", diags);
            if (sn instanceof DeclarationSnippet ds) {
                var unresolved = kernel.javaEngine()
                        .getShell()
                        .unresolvedDependencies(ds)
                        .toList();
                if (!unresolved.isEmpty()) return "cannot find " + String.join(", ", unresolved);
            }
            return "snippet " + ce.badSnippet().status();
        }
        return ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    }

    /** Each file's source with its package line blanked, keyed by file name, in dependency order. */
    static Map<String, String> sources(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return Map.of();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        var text = new LinkedHashMap<String, String>();
        var types = new LinkedHashMap<String, List<String>>();
        for (Path f : files) {
            String src = Files.readString(f);
            Matcher pkg = PACKAGE.matcher(src);
            src = pkg.find()
                    ? src.substring(0, pkg.start()) + " ".repeat(pkg.end() - pkg.start()) + src.substring(pkg.end())
                    : src;
            text.put(f.getFileName().toString(), src);
            var declared = new ArrayList<String>();
            Matcher m = TYPE.matcher(src);
            while (m.find()) declared.add(m.group(1));
            types.put(f.getFileName().toString(), declared);
        }
        // a file that names no other file's types goes first: records and enums before the classes using them
        var order = new ArrayList<>(text.keySet());
        order.sort(Comparator.comparingLong(f -> types.entrySet().stream()
                .filter(o -> !o.getKey().equals(f))
                .flatMap(o -> o.getValue().stream())
                .filter(t ->
                        Pattern.compile("\\b" + t + "\\b").matcher(text.get(f)).find())
                .count()));
        var out = new LinkedHashMap<String, String>();
        for (String f : order) out.put(f, text.get(f));
        return out;
    }

    /** Where the exercise folders are: {@code $COURSE_EXERCISES_DIR}, else the course folder's (see {@link CourseRoot}). */
    static Path exercisesDir() {
        String override = System.getenv("COURSE_EXERCISES_DIR");
        if (override != null && !override.isBlank()) return Path.of(override).toAbsolutePath();
        Path here = Path.of("").toAbsolutePath();
        return CourseRoot.locate(here, System.getProperty(CourseRoot.PROPERTY), System.getenv(CourseRoot.VARIABLE))
                .map(root -> root.resolve("exercises"))
                .orElse(here.resolve("exercises"));
    }
}
