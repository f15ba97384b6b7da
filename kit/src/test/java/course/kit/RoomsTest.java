package course.kit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import course.base.CourseRoot;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The kit in rooms (CONTRIBUTING.md, "A new kit instrument"): the instruments in {@code course.kit}, the models in
 * {@code course.kit.models}, the charts and tables in {@code course.kit.charts}, the experiments, the diagnostics,
 * the CLI and the Jupyter hooks each in a package of their own. The arrows between the rooms go one way, no two
 * classes of the kit use each other, and the base keeps its classes out of the kit's packages.
 */
class RoomsTest {
    private static final JavaClasses KIT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("course.kit");

    /** Each package of the kit a slice, the root package ({@code course.kit}: the instruments) one of them. */
    private static final SliceAssignment ROOMS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String p = c.getPackageName();
            if (p.equals("course.kit")) return SliceIdentifier.of("instruments (course.kit)");
            if (p.startsWith("course.kit."))
                return SliceIdentifier.of(p.substring("course.kit.".length()).split("\\.")[0]);
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the kit's packages, its root package included";
        }
    };

    @Test
    void theKitsPackagesAreFreeOfCycles() {
        slices().assignedFrom(ROOMS).should().beFreeOfCycles().check(KIT);
    }

    @Test
    void noTwoClassesOfTheKitUseEachOther() {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : KIT) {
            String from = topLevel(c);
            c.getDirectDependenciesFromSelf().forEach(d -> {
                String to = topLevel(d.getTargetClass());
                if (!to.equals(from) && to.startsWith("course.kit.")) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            });
        }
        var twoWay = new TreeSet<String>();
        uses.forEach((a, targets) -> targets.forEach(b -> {
            if (a.compareTo(b) < 0 && uses.getOrDefault(b, Set.of()).contains(a)) twoWay.add(a + " ⇄ " + b);
        }));
        assertEquals(
                Set.of(),
                twoWay,
                "classes of the kit that use each other: let one of them hand the other what it needs");
    }

    @Test
    void theBaseKeepsOutOfTheKitsPackages() {
        JavaClasses base = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importUrl(
                        CourseRoot.class.getProtectionDomain().getCodeSource().getLocation());
        classes()
                .should()
                .resideInAPackage("course.base..")
                .because("a package split over the base and the kit makes a class's jar depend on the class path")
                .check(base);
    }

    /** {@code course.kit.Check} for {@code course.kit.Check$Failed}: a nested class is part of its top-level class. */
    private static String topLevel(JavaClass c) {
        String name = c.getName();
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }
}
