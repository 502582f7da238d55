package io.delayq.bench.fleet;

import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.operator.resource.AutoscalingSpec;

import java.time.Duration;
import java.util.List;

/**
 * A worker Deployment in discrete time. Every {@code stepMs}: the pods that are ready fire due tasks, earliest due
 * first, at most {@code perReplicaPerSecond} each (one queue of work served at ready × rate, so a task fires at its
 * due time when the fleet has room and later when it has not); every pod, ready or starting, is paid for. Every
 * {@code checkIntervalMs} (offset by {@code checkPhaseMs} from the start, so a wave does not land on a check) the
 * operator's decision runs on the backlog and forecast of the simulated queue; new pods fire from
 * {@code startupMs} after they were asked for.
 */
public final class FleetSimulator {

    public record Settings(long startupMs, long checkIntervalMs, long checkPhaseMs, double perReplicaPerSecond, long stepMs) {
        public Settings {
            if (stepMs <= 0 || checkIntervalMs % stepMs != 0 || checkPhaseMs % stepMs != 0) {
                throw new IllegalArgumentException("stepMs must be positive and divide the check interval and phase");
            }
            if (!(perReplicaPerSecond > 0)) {
                throw new IllegalArgumentException("perReplicaPerSecond must be above 0, got " + perReplicaPerSecond);
            }
        }
    }

    private final Settings settings;

    public FleetSimulator(Settings settings) {
        this.settings = settings;
    }

    /** Hears every check that changed the replica count. */
    public interface Trace {
        Trace NONE = (at, due, ready, replicas, reason) -> { };

        void scaled(long at, long due, int ready, int replicas, String reason);
    }

    public FleetRun run(Scenario scenario, AutoscalingSpec policy) {
        return run(scenario, policy, Trace.NONE);
    }

    public FleetRun run(Scenario scenario, AutoscalingSpec policy, Trace trace) {
        SimulatedQueue queue = new SimulatedQueue(scenario.tasks());
        List<Duration> windows = ForecastPolicy.windowsFor(policy, ReplicaController.measured(settings.startupMs(), settings.checkIntervalMs()));
        ReplicaController controller = new ReplicaController(policy, policy.getMinReplicas(),
                ReplicaController.measured(settings.startupMs(), settings.checkIntervalMs()));
        Pods pods = new Pods(settings.startupMs());
        long step = settings.stepMs();
        // the fleet at its floor has been running since before the scenario starts
        pods.scaleTo(policy.getMinReplicas(), scenario.start() - settings.startupMs());
        double busyUntil = scenario.start();
        for (long t = scenario.start(); t < scenario.end() || queue.hasUnfired(); t += step) {
            if ((t - scenario.start() - settings.checkPhaseMs()) % settings.checkIntervalMs() == 0) {
                int before = controller.replicas();
                long due = queue.due(t);
                pods.scaleTo(controller.check(t, due, queue.forecast(t, windows)), t);
                if (controller.replicas() != before) {
                    trace.scaled(t, due, pods.ready(t), controller.replicas(), controller.reason());
                }
            }
            busyUntil = fire(queue, pods.ready(t), t, t + step, busyUntil);
            if (t < scenario.end()) {
                pods.bill(step);
            }
            if (t > scenario.end() + Duration.ofDays(1).toMillis()) {
                throw new IllegalStateException(scenario.name() + ": " + (queue.size() - queue.fired()) + " tasks never fired");
            }
        }
        if (queue.fired() != queue.size()) {
            throw new IllegalStateException(scenario.name() + ": fired " + queue.fired() + " of " + queue.size() + " tasks");
        }
        return new FleetRun(scenario.name(), policy.getMode().name(), queue.lags(), pods.replicaSeconds(), pods.peak(), controller.changes());
    }

    /**
     * Fires within [from, to) at {@code ready} × the per-replica rate; returns when the fleet is free again (its last
     * task's share of time may reach into the next step).
     */
    private double fire(SimulatedQueue queue, int ready, long from, long to, double busyUntil) {
        if (ready == 0) {
            return Math.max(busyUntil, to);
        }
        double msPerTask = 1000.0 / (ready * settings.perReplicaPerSecond());
        double free = Math.max(busyUntil, from);
        while (queue.hasUnfired()) {
            double start = Math.max(queue.nextUnfiredDue(), free);
            if (start >= to) {
                break;
            }
            queue.fire((long) Math.ceil(start));
            free = start + msPerTask;
        }
        return free;
    }
}
