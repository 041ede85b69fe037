import { startPanel } from "../../src/panel/app.js";

void startPanel();
