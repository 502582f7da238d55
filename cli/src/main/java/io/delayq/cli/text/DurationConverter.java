package io.delayq.cli.text;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/** Picocli converter for duration options; the message says what forms are accepted. */
public final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return DurationText.require("duration", value);
        } catch (InvalidInputException e) {
            throw new TypeConversionException(e.getMessage().substring("duration: ".length()));
        }
    }
}
