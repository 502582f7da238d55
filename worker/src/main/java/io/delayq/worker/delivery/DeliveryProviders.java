package io.delayq.worker.delivery;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;

/** The delivery modules on the class path, by name. */
public final class DeliveryProviders {
    private DeliveryProviders() {
    }

    public static Optional<DeliveryProvider> named(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return installed().stream().filter(p -> p.name().equals(wanted)).findFirst();
    }

    public static List<DeliveryProvider> installed() {
        return ServiceLoader.load(DeliveryProvider.class, DeliveryProviders.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get).toList();
    }
}
