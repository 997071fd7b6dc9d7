// Runs before the page is drawn (a classic script in <head>): styles that
// only make sense with JavaScript apply from the first paint, without a flash.
document.documentElement.className = "js";
