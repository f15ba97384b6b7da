/**
 * The models that a notebook's predictions are set against, one class per notebook and one method per prediction:
 * the formula's text, its value, and the likely mistakes ({@link course.kit.Prediction.Model#ifNear}) with the term
 * each one missed. They live here, not in the notebook's cells, so that a learner who types a guess has neither the
 * formula nor the feedback on screen: both come out only in the run's output, after the guess, as
 * {@code guess.against(CafeModel.pool(customers, baristas, brew, cores), pool.elapsed())}. The experiment itself (the
 * executor, the loop, the task) stays in the cell.
 */
package course.kit.models;
