package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.operator.workers.PodSecurity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The images Jib builds (profile `image` of app/ and operator/) are the ones the chart runs:
 * same repository, tag = the chart's appVersion = the Maven version, and the non-root user the
 * pod security contexts ask for. The profile stays out of the default build.
 */
class ImageWiringTest {

    @ParameterizedTest
    @CsvSource({
            "app/pom.xml, /workerImage/repository, io.delayq.app.Main",
            "operator/pom.xml, /image/repository, io.delayq.operator.DelayQueueOperator"})
    void jibBuildsTheImageTheChartRuns(String pom, String valuesPointer, String mainClass) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(RepoPaths.root().resolve(pom).toFile());
        Document root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(RepoPaths.root().resolve("pom.xml").toFile());
        XPath x = XPathFactory.newInstance().newXPath();
        String jib = "/project/profiles/profile[id='image']/build/plugins/plugin[artifactId='jib-maven-plugin']";
        // the recipe both images share: the root pom's pluginManagement
        String recipe = "/project/build/pluginManagement/plugins/plugin[artifactId='jib-maven-plugin']";
        JsonNode values = Yaml.read(RepoPaths.chart().resolve("values.yaml"));
        String appVersion = Yaml.read(RepoPaths.chart().resolve("Chart.yaml")).path("appVersion").asText();
        String projectVersion = x.evaluate("/project/parent/version", doc);

        assertThat(x.evaluate(jib + "/artifactId", doc)).isEqualTo("jib-maven-plugin");
        assertThat(x.evaluate(recipe + "/groupId", root)).isEqualTo("com.google.cloud.tools");
        String registry = x.evaluate("/project/properties/image.registry", root);
        assertThat(x.evaluate(jib + "/configuration/to/image", doc).replace("${image.registry}", registry))
                .isEqualTo(values.at(valuesPointer).asText() + ":${project.version}");
        assertThat(appVersion).as("Chart appVersion = the Maven version the images are tagged with").isEqualTo(projectVersion);
        assertThat(x.evaluate(recipe + "/configuration/from/image", root)).isEqualTo("${image.base}");
        assertThat(x.evaluate("/project/properties/image.base", root)).as("the shipped base").isEqualTo("eclipse-temurin:17-jre");
        assertThat(x.evaluate(jib + "/configuration/container/mainClass", doc)).isEqualTo(mainClass);
        assertThat(x.evaluate(recipe + "/configuration/container/ports/port", root)).isEqualTo("8080");
        assertThat(x.evaluate(recipe + "/configuration/container/format", root)).isEqualTo("OCI");
        String user = x.evaluate(recipe + "/configuration/container/user", root);
        assertThat(user).isEqualTo(values.at("/podSecurityContext/runAsUser").asText() + ":" + values.at("/podSecurityContext/runAsGroup").asText());
        assertThat(user).startsWith(PodSecurity.USER_ID + ":");
        // Only in the profile: the default build never tries to pull a base image.
        assertThat((Double) x.evaluate("count(/project/build/plugins/plugin[artifactId='jib-maven-plugin'])", doc, XPathConstants.NUMBER)).isZero();
        assertThat((Double) x.evaluate("count(/project/build/plugins/plugin[artifactId='jib-maven-plugin'])", root, XPathConstants.NUMBER)).isZero();
        assertThat(x.evaluate("/project/profiles/profile[id='image']/activation", doc)).isEmpty();
    }
}
