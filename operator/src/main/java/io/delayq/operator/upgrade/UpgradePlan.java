package io.delayq.operator.upgrade;

import io.delayq.layout.Layout;
import io.delayq.operator.resource.ProtocolUpgradeStatus;

/**
 * What {@code spec.protocol} asks of a queue, given the protocol its meta hash records: a pure function, unit-tested
 * without a client.
 * <ul>
 *   <li>{@link Action#UPGRADE}: the upgrade job must run: the spec asks for 3 and Redis records 2, or records 3 while
 *       the last upgrade has not finished (protocol 2's tasks in flight are still to be adopted).</li>
 *   <li>{@link Action#WAIT}: the spec asks for 3 while the shard count grows (a reshard moves protocol 2's keys; the
 *       upgrade starts once it has finished), or an unfinished upgrade of a queue switched already meets a running
 *       migration (it goes on once the migration has finished).</li>
 *   <li>{@link Action#REFUSED}: the spec asks for 2 of a queue on 3 (there is no way back).</li>
 *   <li>{@link Action#NONE}: nothing to do, or Redis could not be read ({@code recorded} 0).</li>
 * </ul>
 *
 * @param message why it waits or refuses, else null
 */
public record UpgradePlan(Action action, String message) {
    public static final int FROM = 2;
    public static final int TO = 3;

    public enum Action { NONE, UPGRADE, WAIT, REFUSED }

    /**
     * @param wanted     spec.protocol (null: leave the queue as it is)
     * @param recorded   the protocol the meta hash records, 0 when not read this time
     * @param layout     the layout the meta hash records (null: not read)
     * @param growing    whether the spec asks for more shards than Redis has (a reshard starts or runs)
     * @param previous   status.upgrade as the last reconcile left it
     */
    public static UpgradePlan of(Integer wanted, int recorded, Layout layout, boolean growing, ProtocolUpgradeStatus previous) {
        if (recorded == 0) {
            return new UpgradePlan(Action.NONE, null);
        }
        if (wanted != null && wanted == TO) {
            // a queue still on protocol 2 waits for any grow; one switched already waits only while a migration runs (its
            // upgrade's steps and protocol 3's mover would both take the old shards' tasks)
            if (recorded == FROM && growing || layout != null && layout.migrating() && (recorded == FROM || previous != null && !previous.isFinished())) {
                return new UpgradePlan(Action.WAIT, "spec.protocol: the upgrade to protocol 3 waits for the shard count to finish growing "
                        + "(one change of the queue's layout at a time), then starts by itself");
            }
            boolean unfinished = previous != null && !previous.isFinished();
            return new UpgradePlan(recorded == FROM || unfinished ? Action.UPGRADE : Action.NONE, null);
        }
        if (wanted != null && wanted == FROM && recorded == TO) {
            return new UpgradePlan(Action.REFUSED, "spec.protocol: the queue runs protocol 3 in Redis, and a queue is never downgraded; "
                    + "set spec.protocol to 3 or remove it");
        }
        return new UpgradePlan(Action.NONE, null);
    }
}
