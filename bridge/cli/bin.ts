#!/usr/bin/env node
import { runProcess } from "./main.js";

void runProcess();
