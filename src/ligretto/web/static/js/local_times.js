// Days and times said in the reader's own time zone: the server writes them
// in UTC ("18:40 UTC"), which is not the hour a game was played at the
// table. Each <time data-local="date|time" datetime="…"> gets the same
// moment in the page's language and the browser's zone.
const lang = document.documentElement.lang || undefined;
const styles = { date: { dateStyle: "medium" }, time: { timeStyle: "short" } };
for (const el of document.querySelectorAll("time[data-local]")) {
  const moment = new Date(el.dateTime);
  const style = styles[el.dataset.local];
  if (style && !Number.isNaN(moment.getTime())) {
    el.textContent = new Intl.DateTimeFormat(lang, style).format(moment);
  }
}
