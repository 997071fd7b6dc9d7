// The strategy lab: the form asks for the template's seats as soon as the
// question or the number of players changes (without a script, "Set the
// seats" does it); a study's page follows its progress over server-sent
// events and shows the results once it has ended.

const form = document.getElementById("lab-form");
if (form) {
  for (const input of form.querySelectorAll("[data-lab-template]")) {
    input.addEventListener("change", () => {
      const question = form.querySelector("input[name=question]:checked");
      if (question && question.value === "custom") return; // own seats: kept as they are
      form.querySelector(".lab-set-seats").click();
    });
  }
}

const status = document.getElementById("lab-status");
if (status && ["queued", "running"].includes(status.dataset.state)) {
  const bar = document.getElementById("lab-progress");
  const count = document.getElementById("lab-count");
  const label = document.getElementById("lab-state-text");
  const texts = document.getElementById("lab-texts");
  const text = (key) => texts.content.querySelector(`[data-key="${key}"]`).textContent;
  const events = new EventSource(status.dataset.events);
  events.addEventListener("progress", (event) => {
    const progress = JSON.parse(event.data);
    if (!["queued", "running"].includes(progress.state)) {
      events.close();
      window.location.reload(); // the page of the ended study: plots, or why there are none
      return;
    }
    bar.max = progress.total;
    bar.value = progress.done;
    bar.textContent = `${progress.done} / ${progress.total}`;
    count.textContent = `${progress.done} / ${progress.total}`;
    label.textContent = progress.state === "queued"
      ? text("queued").replace("{n}", String(progress.place ?? 1))
      : text("running");
  });
}
