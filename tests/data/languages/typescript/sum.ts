declare function require(name: string): any;
const data: string = require("fs").readFileSync(0, "utf8");
const nums: number[] = data.split(/\s+/).filter((s) => s.length > 0).map(Number);
const out: string[] = [];
for (let i = 0; i < nums[0]; i++) {
  out.push(String(nums[1 + 2 * i] + nums[2 + 2 * i]));
}
console.log(out.join("\n"));
