const nums = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
for (let i = 0; i < nums[0]; i++) console.log(nums[1 + 2 * i] + nums[2 + 2 * i]);
