package course.base;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The place of a jqwik property among the tests of its class, as Jupiter's {@code @Order} is for a Jupiter test:
 * jqwik refuses Jupiter's annotations on a {@code @Property}. The grader reports a class's tests of both engines in
 * one order, by these two values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface TestOrder {
    /** The test's place: 1 for the first test of its class. */
    int value();
}
