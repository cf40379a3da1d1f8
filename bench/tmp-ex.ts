import { benchExports } from "./exports";
console.table(await benchExports());
