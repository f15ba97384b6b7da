package course.kernel;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.Documentation;

/**
 * The Javadoc of a method that JShell finds but gives no Javadoc for, read from its source file with javac's public
 * tree API. JShell 25 misses the methods that {@code Thread.Builder} itself declares ({@code start},
 * {@code unstarted}, {@code factory} …) though {@code src.zip} has them: its source lookup does not find members of
 * that nested interface. Here the method is found by its owner's name, its own name and its parameters' type names,
 * as JShell's signature gives them ({@code Thread Thread.Builder.start(Runnable)}), in the top-level type's source
 * file; each file is parsed once (parsing only, no analysis) and kept for the kernel's life.
 */
final class SourceJavadoc {

    private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();
    private static final Map<Path, Parsed> PARSED = new ConcurrentHashMap<>();

    private record Parsed(JavacTask task, CompilationUnitTree unit) {}

    /** A method's name and owner, read from JShell's signature: {@code [<T>] Ret Owner.Inner.<T>name(A a, B)}. */
    record Method(String owner, String name, List<String> parameterTypes) {}

    private SourceJavadoc() {}

    /** {@code docs}, each one without Javadoc given the Javadoc found in {@code roots}, where there is one. */
    static List<Documentation> fill(SourceCodeAnalysis sca, List<Documentation> docs, List<Path> roots) {
        if (roots.isEmpty() || docs.stream().allMatch(d -> d.javadoc() != null)) return docs;
        List<Documentation> out = new ArrayList<>(docs.size());
        for (Documentation d : docs) {
            String javadoc = d.javadoc();
            if (javadoc == null) {
                try {
                    javadoc = find(sca, d.signature(), roots);
                } catch (IOException | RuntimeException e) {
                    javadoc = null; // the signature alone, as JShell gave it
                }
            }
            out.add(javadoc == d.javadoc() ? d : new Found(d.signature(), javadoc));
        }
        return out;
    }

    record Found(String signature, String javadoc) implements Documentation {}

    static String find(SourceCodeAnalysis sca, String signature, List<Path> roots) throws IOException {
        Method m = parse(signature);
        if (m == null) return null;
        String[] owner = m.owner().split("\\.");
        int top = 0;
        while (top < owner.length && !Character.isUpperCase(owner[top].charAt(0))) top++;
        if (top == owner.length) return null;
        String pkg = String.join(".", List.of(owner).subList(0, top));
        if (pkg.isEmpty()) pkg = packageOf(sca, owner[top]);
        if (pkg == null) return null;
        Path file = sourceFile(roots, pkg, owner[top]);
        if (file == null) return null;
        Parsed parsed = PARSED.computeIfAbsent(file, SourceJavadoc::parseFile);
        if (parsed == null) return null;
        TreePath path = methodPath(parsed.unit(), List.of(owner).subList(top, owner.length), m);
        return path == null ? null : Trees.instance(parsed.task()).getDocComment(path);
    }

    /** The package of a top-level type named {@code simpleName} where the notebook's code is, as JShell resolves it. */
    private static String packageOf(SourceCodeAnalysis sca, String simpleName) {
        for (Documentation d : sca.documentation(simpleName, simpleName.length(), false)) {
            String fqn = d.signature();
            if (fqn.endsWith("." + simpleName)) return fqn.substring(0, fqn.length() - simpleName.length() - 1);
        }
        return null;
    }

    private static Path sourceFile(List<Path> roots, String pkg, String type) {
        for (Path root : roots) {
            Path p = root.resolve(pkg.replace('.', '/')).resolve(type + ".java");
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }

    private static Parsed parseFile(Path file) {
        try {
            StandardJavaFileManager fm = JAVAC.getStandardFileManager(d -> {}, null, null);
            JavacTask task = (JavacTask)
                    JAVAC.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjects(file));
            for (CompilationUnitTree unit : task.parse()) return new Parsed(task, unit);
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static TreePath methodPath(CompilationUnitTree unit, List<String> classes, Method m) {
        TreePath path = new TreePath(unit);
        List<? extends Tree> members = unit.getTypeDecls();
        for (String name : classes) {
            ClassTree found = null;
            for (Tree t : members) {
                if (t instanceof ClassTree c && c.getSimpleName().contentEquals(name)) found = c;
            }
            if (found == null) return null;
            path = new TreePath(path, found);
            members = found.getMembers();
        }
        for (Tree t : members) {
            if (t instanceof MethodTree method
                    && method.getName().contentEquals(m.name())
                    && parameterTypes(method).equals(m.parameterTypes())) {
                return new TreePath(path, method);
            }
        }
        return null;
    }

    private static List<String> parameterTypes(MethodTree method) {
        List<String> types = new ArrayList<>();
        for (VariableTree p : method.getParameters())
            types.add(simpleType(p.getType().toString()));
        return types;
    }

    /** {@code java.util.List<T>[]} → {@code List[]}: what both a signature and a source tree can agree on. */
    static String simpleType(String type) {
        String t = stripGenerics(type).replace("...", "[]").replaceAll("\\s+", "");
        int dims = t.indexOf('[');
        String base = dims < 0 ? t : t.substring(0, dims);
        String suffix = dims < 0 ? "" : t.substring(dims);
        return base.substring(base.lastIndexOf('.') + 1) + suffix;
    }

    private static String stripGenerics(String s) {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        for (char c : s.toCharArray()) {
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (depth == 0) sb.append(c);
        }
        return sb.toString();
    }

    /** Reads a method's owner, name and parameter types from JShell's signature; null for anything else. */
    static Method parse(String signature) {
        int open = signature.indexOf('(');
        int close = signature.lastIndexOf(')');
        if (open < 0 || close < open) return null;
        String head = stripGenerics(signature.substring(0, open)).strip();
        String[] words = head.split("\\s+");
        String qualified = words[words.length - 1];
        int dot = qualified.lastIndexOf('.');
        if (words.length < 2 || dot < 0) return null; // a constructor, or no owner: JShell finds those
        List<String> types = new ArrayList<>();
        String params = signature.substring(open + 1, close);
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= params.length(); i++) {
            char c = i < params.length() ? params.charAt(i) : ',';
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (c == ',' && depth == 0) {
                String p = stripGenerics(params.substring(start, i)).strip();
                if (!p.isEmpty()) {
                    String[] typeAndName = p.split("\\s+");
                    types.add(simpleType(typeAndName[0]));
                }
                start = i + 1;
            }
        }
        return new Method(qualified.substring(0, dot), qualified.substring(dot + 1), types);
    }
}
