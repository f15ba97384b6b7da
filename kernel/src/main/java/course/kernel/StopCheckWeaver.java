package course.kernel;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.BranchInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.LookupSwitchInstruction;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.classfile.instruction.TableSwitchInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rewrites a class so that every method calls {@link CellStop#check()} on entry and before every backward
 * branch (the jump back to the head of a loop). A snippet's {@code while (true) {}} then ends with
 * {@link CellInterruptedError} as soon as the kernel requests a stop, on whatever thread it runs.
 *
 * <p>Static initialisers are left alone: a class whose initialiser throws can never be used again.
 * The rewrite only adds a call with no arguments and no result, so the stack-map frames keep their types;
 * they are recomputed with a class-hierarchy resolver that also reads the classes of {@code loader} (the snippet
 * classes that JShell defined before this one).
 */
public final class StopCheckWeaver {

    static final ClassDesc CELL_STOP = ClassDesc.of(CellStop.class.getName());
    static final MethodTypeDesc NO_ARGS_VOID = MethodTypeDesc.of(ConstantDescs.CD_void);
    static final String CHECK = "check";

    private StopCheckWeaver() {}

    /** True for JShell's snippet classes, given an internal name ({@code REPL/$JShell$12}). */
    public static boolean isSnippetClass(String internalName) {
        return internalName != null && internalName.startsWith(CellStop.SNIPPET_PACKAGE + "/");
    }

    /**
     * Returns {@code classBytes} with stop checks woven in.
     *
     * @param loader the loader that will define the class, used to resolve the types of other snippet classes
     *               when stack-map frames are recomputed; may be null (system classes only)
     */
    public static byte[] weave(byte[] classBytes, ClassLoader loader) {
        ClassHierarchyResolver resolver = ClassHierarchyResolver.defaultResolver();
        if (loader != null) {
            resolver = resolver.orElse(ClassHierarchyResolver.ofResourceParsing(loader));
        }
        ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(resolver));
        ClassModel model = cf.parse(classBytes);
        return cf.transformClass(
                model,
                ClassTransform.transformingMethodBodies(
                        StopCheckWeaver::wantsChecks, CodeTransform.ofStateful(StopChecks::new)));
    }

    private static boolean wantsChecks(MethodModel m) {
        return !m.methodName().equalsString(ConstantDescs.CLASS_INIT_NAME);
    }

    static void emitCheck(CodeBuilder b) {
        b.invokestatic(CELL_STOP, CHECK, NO_ARGS_VOID);
    }

    /** One per method body: remembers the labels already passed, so that a jump to one of them is backward. */
    private static final class StopChecks implements CodeTransform {

        private final Set<Label> passed = new HashSet<>();

        @Override
        public void atStart(CodeBuilder b) {
            emitCheck(b);
        }

        @Override
        public void accept(CodeBuilder b, CodeElement e) {
            switch (e) {
                case LabelTarget t -> passed.add(t.label());
                case BranchInstruction br when passed.contains(br.target()) -> emitCheck(b);
                case TableSwitchInstruction ts when anyPassed(ts.defaultTarget(), ts.cases()) -> emitCheck(b);
                case LookupSwitchInstruction ls when anyPassed(ls.defaultTarget(), ls.cases()) -> emitCheck(b);
                default -> {}
            }
            b.with(e);
        }

        private boolean anyPassed(Label defaultTarget, List<SwitchCase> cases) {
            if (passed.contains(defaultTarget)) {
                return true;
            }
            for (SwitchCase c : cases) {
                if (passed.contains(c.target())) {
                    return true;
                }
            }
            return false;
        }
    }
}
