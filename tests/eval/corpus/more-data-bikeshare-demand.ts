import type { EvalCase } from "../case";

export const moreDataBikeshareDemand: EvalCase = {
  id: "more-data-bikeshare-demand",
  kind: "forecasting model: collect, train, evaluate, deploy (bike share demand)",
  work_kind: "data",
  description: `Station demand forecast for the overnight rebalancing crews

Our city bike share has about 310 stations and 2,600 bikes. Every night two van crews move bikes around based on gut feeling and yesterday's complaints, and 11% of morning trip attempts still fail because the station is empty (or full, for returns).

We want a forecast of pickups and returns per station for the next day, so the crews know where to take bikes. Python is fine; the data team knows it.

In this order:
1. Collect: three years of trip data from the operations database (PostgreSQL), hourly weather observations from the national weather service, and public and school holidays. Build one hourly table per station with pickups and returns.
2. Train: one LightGBM model across all stations that predicts pickups and returns per station per hour for the next 24 hours, from the hour, weekday, holiday flag, temperature, rain and the last weeks' demand.
3. Evaluate: backtest on the last 6 months with a rolling origin. It has to beat the seasonal-naive baseline (same hour last week) by at least 20% on MAE, and we want the error per station for the 30 busiest stations.
4. Deploy: run it every night at 22:00 as an Apache Airflow job, write the forecasts to a forecasts table, and show the crews' dispatch screen the stations that will run empty or full before 8 am.

After launch: retrain monthly, and alert the data team when the weekly MAE is 30% worse than what the evaluation showed.

Not now: dynamic pricing or rider incentives to move bikes.`,
  requirements: [
    { id: "R1", text: "Collect three years of trip data from the operations database", match: ["trip data"] },
    { id: "R2", text: "Collect hourly weather observations", match: ["weather"] },
    { id: "R3", text: "Collect public and school holidays", match: ["public", "holiday"] },
    {
      id: "R4",
      text: "One hourly table per station with pickups and returns",
      match: ["hourly table"],
    },
    {
      id: "R5",
      text: "Train one LightGBM model for pickups and returns per station per hour",
      match: ["LightGBM"],
    },
    { id: "R6", text: "Backtest on the last 6 months with a rolling origin", match: ["backtest"] },
    {
      id: "R7",
      text: "Beat the seasonal-naive baseline by at least 20% on MAE",
      match: ["baseline"],
    },
    { id: "R8", text: "Error per station for the 30 busiest stations", match: ["busiest"] },
    { id: "R9", text: "Run every night at 22:00 as an Apache Airflow job", match: ["Airflow"] },
    { id: "R10", text: "Write the forecasts to a forecasts table", match: ["forecasts table"] },
    {
      id: "R11",
      text: "Show the dispatch screen the stations that will run empty or full",
      match: ["dispatch"],
    },
    { id: "R12", text: "Retrain monthly", match: ["retrain"] },
    {
      id: "R13",
      text: "Alert when the weekly MAE is 30% worse than the evaluation showed",
      match: ["alert"],
    },
  ],
  technologies: ["python", "postgresql", "lightgbm", "airflow"],
  non_goals: [
    { text: "dynamic pricing", match: ["pricing"] },
    { text: "rider incentives", match: ["incentive"] },
  ],
  not_work: [
    { text: "the context: failed morning trips", match: ["11%"] },
    { text: "the context: gut feeling", match: ["gut feeling"] },
    { text: "the data team knows Python", match: ["data team knows"] },
  ],
  not_non_goals: [{ text: "After launch: retrain monthly", match: ["retrain"] }],
  sequence: [
    ["R1", "R4", "R5", "R6", "R9"],
    ["R2", "R4"],
    ["R3", "R4"],
    ["R9", "R12"],
  ],
  separate: [["R1", "R2", "R3"]],
  independent: [
    ["R2", "R3"],
    ["R7", "R8"],
  ],
  inspired_by:
    "README of yipyiphouray/cloudy-with-a-chance-of-bixi (hourly station-level bike share demand forecast for rebalancing: trips, weather, gradient boosting, MAE backtest) and README of wangpengcn/Vancouver-bike-share-forecast (collect trip, holiday and weather data, then train and test)",
};
