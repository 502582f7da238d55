package io.delayq.chaos.scenario;

/** A scenario driven by one settings record, whose {@code key} names the scenario. */
public abstract class SettingsScenario<S extends SettingsScenario.Keyed> implements Scenario {
    /** What every scenario's settings carry: the key that names the run and its output folder. */
    public interface Keyed {
        String key();
    }

    protected final S s;

    protected SettingsScenario(S settings) {
        this.s = settings;
    }

    @Override
    public final String key() {
        return s.key();
    }
}
