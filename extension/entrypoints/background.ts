import { defineBackground } from "#imports";
import { startBackground } from "../src/background.js";

export default defineBackground(startBackground);
