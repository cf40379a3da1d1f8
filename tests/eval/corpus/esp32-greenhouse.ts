import type { EvalCase } from "../case";

export const esp32Greenhouse: EvalCase = {
  id: "esp32-greenhouse",
  kind: "embedded / IoT",
  application_type: "iot",
  description: `Firmware for a greenhouse controller on an ESP32: reads soil moisture (4 capacitive sensors), air temperature/humidity (SHT31 over I2C) and light level every 30 s, drives two water pumps and a fan through relays, and publishes readings to our MQTT broker over Wi-Fi. Watering rules run locally even when the network is down. OTA firmware updates. Deep sleep between readings when running on the battery backup. Written in C with ESP-IDF.`,
  requirements: [
    { id: "R1", text: "Read soil moisture from 4 capacitive sensors", match: ["soil moisture"] },
    { id: "R2", text: "Read temperature and humidity from the SHT31 over I2C", match: ["SHT31"] },
    { id: "R3", text: "Read the light level", match: ["light"] },
    { id: "R4", text: "Drive two water pumps", match: ["pump"] },
    { id: "R5", text: "Drive a fan", match: ["fan"] },
    { id: "R6", text: "Through relays", match: ["relay"] },
    { id: "R7", text: "Publish readings to the MQTT broker", match: ["MQTT"] },
    { id: "R8", text: "Over Wi-Fi", match: ["Wi-Fi"] },
    { id: "R9", text: "Watering rules run locally when the network is down", match: ["watering rule"] },
    { id: "R10", text: "OTA firmware updates", match: ["OTA"] },
    { id: "R11", text: "Deep sleep between readings", match: ["deep sleep"] },
    { id: "R12", text: "On the battery backup", match: ["battery"] },
  ],
  technologies: ["esp32", "mqtt", "c", "esp-idf"],
  non_goals: [],
};
