package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The failing input the grade shows is the one jqwik shrank to, read from jqwik's report of the property. */
class PropertyTestsTest {
    /** A report as jqwik 1.9.3 publishes it for a property that failed and was shrunk. */
    private static final String SHRUNK = """
            CafeTest:eachTaskSleepsForBrewTime =
              org.opentest4j.AssertionFailedError:
                a task on the staff ran 1.000 ms; each must sleep brewTime, 1.900 ms

                                          |-----------------------jqwik-----------------------
            tries = 3                     | # of calls to property
            seed = 2020004                | random seed to reproduce generated values

            Shrunk Sample (7 steps)
            -----------------------
              s: serve(1, PT0.0019S (1,900,000 ns), Executors.newFixedThreadPool(1))
              retries: 0

            Original Sample
            ---------------
              s: serve(5, PT0.002734511S (2,734,511 ns), new ForkJoinPool(3))
              retries: 2
            """;

    @Test
    void theShrunkSampleIsTheExample() {
        assertEquals(
                "s = serve(1, PT0.0019S (1,900,000 ns), Executors.newFixedThreadPool(1)), retries = 0",
                PropertyTests.example(SHRUNK));
    }

    @Test
    void aSampleThatCouldNotBeShrunkIsTheExample() {
        String report = SHRUNK.substring(0, SHRUNK.indexOf("Shrunk Sample")) + "Sample\n------\n  count: 37\n\n";
        assertEquals("count = 37", PropertyTests.example(report));
    }

    @Test
    void noReportOrNoSampleGivesNoExample() {
        assertNull(PropertyTests.example(null));
        assertNull(PropertyTests.example("tries = 10 | # of calls to property"));
    }
}
