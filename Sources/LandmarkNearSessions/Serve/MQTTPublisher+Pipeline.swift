import LandmarkNearServer

/// `--mqtt-publish`: the pipeline publishes its event lines through the MQTT publisher.
extension MQTTPublisher: EventLinePublisher {}
