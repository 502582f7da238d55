package io.delayq.delivery.kafka;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The broker's JVM ({@link KafkaBroker}): formats the log folder in KRaft mode on the first start, then runs Kafka
 * as {@code kafka-server-start.sh} does. The SCRAM user is added at formatting ({@code kafka-storage format --add-scram}):
 * in KRaft that is the way to have one before the broker runs. Arguments: the properties file, the cluster id, the log folder.
 */
public final class KafkaBrokerMain {
    private KafkaBrokerMain() {
    }

    public static void main(String[] args) {
        String properties = args[0];
        if (!Files.exists(Path.of(args[2], "meta.properties"))) {
            int rc = kafka.tools.StorageTool.execute(new String[]{"format", "-t", args[1], "-c", properties,
                    "--add-scram", "SCRAM-SHA-512=[name=" + KafkaBroker.USER + ",password=" + KafkaBroker.PASSWORD + "]"}, System.out);
            if (rc != 0) {
                System.err.println("formatting the log folder failed: " + rc);
                System.exit(rc);
            }
        }
        kafka.Kafka.main(new String[]{properties});
    }
}
