package course.grader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A learner's submission, laid out as the grader expects it: {@code exercises/NN-name/src/main/java}.
 *
 * <p>A submission is a folder that holds either the learner's {@code exercises/} folder (or a whole copy of
 * the course, at any depth), or bare {@code .java} files. For each exercise, an {@code NN-name/src/main/java}
 * folder in the submission is taken as it is. Otherwise the exercise starts from the course's stubs, and each
 * bare file whose package is one of the exercise's replaces (or joins) the stub of the same name. A file named
 * like one of the course's tests is never used: the tests are the course's own.
 */
final class Submission {
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** How deep in the submission an {@code NN-name/src/main/java} folder is looked for. */
    private static final int MAX_DEPTH = 8;

    /**
     * The laid-out submission.
     *
     * @param root  a folder holding {@code exercises/NN-name/src/main/java} for every exercise
     * @param notes per exercise, what was taken from the submission (for the report)
     */
    record Layout(Path root, Map<String, List<String>> notes) {
        Path sources(String exercise) {
            return root.resolve("exercises").resolve(exercise).resolve("src/main/java");
        }
    }

    private Submission() {}

    /**
     * Lays out {@code submission} under {@code into}.
     *
     * @param course     the course folder (for the stubs)
     * @param submission the learner's folder
     * @param exercises  the exercises to lay out
     * @param into       an empty folder
     */
    static Layout layout(Path course, Path submission, List<String> exercises, Path into) throws IOException {
        List<Path> files;
        List<Path> mainFolders;
        try (Stream<Path> s = Files.walk(submission)) {
            files = s.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        }
        try (Stream<Path> s = Files.walk(submission, MAX_DEPTH)) {
            // exercises/NN-name first (a whole copy of the course may also hold solutions/NN-name), then the
            // shallowest.
            mainFolders = s.filter(p -> p.endsWith(Path.of("src", "main", "java")) && Files.isDirectory(p))
                    .sorted(Comparator.comparingInt((Path p) -> underExercises(p) ? 0 : 1)
                            .thenComparingInt(Path::getNameCount)
                            .thenComparing(Comparator.naturalOrder()))
                    .toList();
        }
        Set<String> courseTests = new HashSet<>();
        for (String e : Pristine.exercises()) {
            courseTests.addAll(Pristine.files(e, Pristine.Kind.TESTS));
            Path hidden = course.resolve(Grader.TRAINER_FOLDER).resolve(e).resolve("src/test/java");
            if (Files.isDirectory(hidden)) {
                try (Stream<Path> s = Files.walk(hidden)) {
                    s.filter(p -> p.toString().endsWith(".java"))
                            .forEach(p -> courseTests.add(
                                    hidden.relativize(p).toString().replace('\\', '/')));
                }
            }
        }
        Map<String, List<String>> notes = new LinkedHashMap<>();
        Set<Path> used = new HashSet<>();
        for (String e : exercises) {
            List<String> said = new ArrayList<>();
            notes.put(e, said);
            Path target = into.resolve("exercises").resolve(e).resolve("src/main/java");
            Files.createDirectories(target);
            Optional<Path> folder = mainFolders.stream()
                    .filter(p -> p.getNameCount() > 3
                            && p.getParent()
                                    .getParent()
                                    .getParent()
                                    .getFileName()
                                    .toString()
                                    .equals(e))
                    .findFirst();
            if (folder.isPresent()) {
                for (Path f : files) {
                    if (f.startsWith(folder.get())) {
                        String rel = folder.get().relativize(f).toString().replace('\\', '/');
                        used.add(f);
                        if (courseTests.contains(rel)) {
                            said.add(show(submission, f) + " is named like one of the course's tests: not used");
                            continue;
                        }
                        copy(f, target.resolve(rel));
                    }
                }
                said.add("graded " + show(submission, folder.get()));
                continue;
            }
            Pristine.Resolution stubs = Pristine.copy(course, e, Pristine.Kind.STUBS, null, target);
            if (!stubs.complete()) {
                throw new IllegalStateException("no copy of the course's stubs of " + e + ": " + stubs.unavailable());
            }
            Set<String> packages = new HashSet<>();
            for (String stub : Pristine.files(e, Pristine.Kind.STUBS)) {
                int slash = stub.lastIndexOf('/');
                packages.add(slash < 0 ? "" : stub.substring(0, slash).replace('/', '.'));
            }
            List<String> taken = new ArrayList<>();
            for (Path f : files) {
                if (used.contains(f) || f.toString().contains("/src/test/")) {
                    continue;
                }
                String pkg = packageOf(f);
                if (pkg == null || !packages.contains(pkg)) {
                    continue;
                }
                String rel = (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + f.getFileName();
                used.add(f);
                if (courseTests.contains(rel)) {
                    said.add(show(submission, f) + " is named like one of the course's tests: not used");
                    continue;
                }
                copy(f, target.resolve(rel));
                taken.add(f.getFileName().toString());
            }
            said.add(
                    taken.isEmpty()
                            ? "no file of this exercise in the submission: graded the course's stub"
                            : "graded " + String.join(", ", taken)
                                    + (taken.size()
                                                    < Pristine.files(e, Pristine.Kind.STUBS)
                                                            .size()
                                            ? " with the course's stubs for the rest"
                                            : ""));
        }
        Files.writeString(into.resolve("course"), "#!/bin/sh\n"); // a course folder, as CourseRoot knows one
        return new Layout(into, notes);
    }

    /** True for {@code .../exercises/NN-name/src/main/java}. */
    private static boolean underExercises(Path mainJava) {
        Path exerciseFolder = mainJava.getParent().getParent().getParent();
        Path parent = exerciseFolder == null ? null : exerciseFolder.getParent();
        return parent != null
                && parent.getFileName() != null
                && parent.getFileName().toString().equals("exercises");
    }

    private static String packageOf(Path file) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        // Comments before the package clause are common; strip them first.
        String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)//.*$", "");
        Matcher m = PACKAGE.matcher(code);
        return m.find() ? m.group(1) : "";
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String show(Path base, Path p) {
        String rel = base.relativize(p).toString().replace('\\', '/');
        return rel.isEmpty() ? "." : rel;
    }
}
